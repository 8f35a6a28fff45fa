package model

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// inferCtx is what an op's inference rule sees.
type inferCtx struct {
	g     *Graph
	n     *Node
	opset int64
}

func (c *inferCtx) errf(format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): %s", c.n.Label(), c.n.OpType, fmt.Sprintf(format, args...))
}

// in returns input i's type, or nil when the input is absent. An input
// nothing is known of has DType Undefined and RankKnown false.
func (c *inferCtx) in(i int) *ValueInfo {
	name := c.n.Input(i)
	if name == "" {
		return nil
	}
	if v := c.g.Values[name]; v != nil {
		return v
	}
	return &ValueInfo{Name: name}
}

func (c *inferCtx) dt(i int) payload.DType {
	if v := c.in(i); v != nil {
		return v.DType
	}
	return payload.Undefined
}

// shape returns a copy of input i's dims and whether its rank is known.
func (c *inferCtx) shape(i int) ([]int, bool) {
	v := c.in(i)
	if v == nil || !v.RankKnown {
		return nil, false
	}
	return copyDims(v.Shape), true
}

// rank returns input i's rank, or -1.
func (c *inferCtx) rank(i int) int {
	v := c.in(i)
	if v == nil || !v.RankKnown {
		return -1
	}
	return len(v.Shape)
}

// ints returns the values of constant input i, or ok false when it is
// absent, not constant or too big to read.
func (c *inferCtx) ints(i int) ([]int64, bool, error) {
	t := c.g.Const(c.n.Input(i))
	if t == nil {
		return nil, false, nil
	}
	if n := t.NumElems(); n < 0 || n > maxConstRead {
		return nil, false, nil
	}
	v, err := t.Int64s()
	if err != nil {
		return nil, false, c.errf("input %d (%q): %v", i, c.n.Input(i), err)
	}
	return v, true, nil
}

// floats is ints for float-valued constant inputs.
func (c *inferCtx) floats(i int) ([]float64, bool, error) {
	t := c.g.Const(c.n.Input(i))
	if t == nil {
		return nil, false, nil
	}
	if n := t.NumElems(); n < 0 || n > maxConstRead {
		return nil, false, nil
	}
	v, err := t.Float64s()
	if err != nil {
		return nil, false, c.errf("input %d (%q): %v", i, c.n.Input(i), err)
	}
	return v, true, nil
}

// vecLen returns the static length of 1-D input i, or -1.
func (c *inferCtx) vecLen(i int) int {
	v := c.in(i)
	if v == nil || !v.RankKnown || len(v.Shape) != 1 {
		return -1
	}
	return v.Shape[0]
}

// axis normalizes axis a against rank r.
func (c *inferCtx) axis(a int64, r int) (int, error) {
	if a < -int64(r) || a >= int64(r) {
		return 0, c.errf("axis %d out of range for rank %d", a, r)
	}
	if a < 0 {
		a += int64(r)
	}
	return int(a), nil
}

// axes normalizes axes against rank r and rejects duplicates.
func (c *inferCtx) axes(as []int64, r int) ([]int, error) {
	out := make([]int, len(as))
	seen := map[int]bool{}
	for i, a := range as {
		x, err := c.axis(a, r)
		if err != nil {
			return nil, err
		}
		if seen[x] {
			return nil, c.errf("axis %d repeated", a)
		}
		seen[x] = true
		out[i] = x
	}
	return out, nil
}

// dim converts an int64 that becomes a dim, rejecting negatives and
// values that do not fit.
func (c *inferCtx) dim(v int64, what string) (int, error) {
	if v < 0 || int64(int(v)) != v {
		return 0, c.errf("%s: dimension %d out of range", what, v)
	}
	return int(v), nil
}

// checkRank rejects absurd ranks.
func (c *inferCtx) checkRank(r int64) error {
	if r < 0 || r > maxRank {
		return c.errf("rank %d out of range", r)
	}
	return nil
}

// broadcast returns the multidirectional broadcast of shapes, each nil
// when unknown rank (then the result rank is unknown).
func (c *inferCtx) broadcast(idx ...int) (ValueInfo, error) {
	var shapes [][]int
	for _, i := range idx {
		s, ok := c.shape(i)
		if !ok {
			return unranked(payload.Undefined), nil
		}
		shapes = append(shapes, s)
	}
	out, err := broadcastDims(shapes...)
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	return ranked(payload.Undefined, out), nil
}

// broadcastDims broadcasts known-rank shapes.
func broadcastDims(shapes ...[]int) ([]int, error) {
	r := 0
	for _, s := range shapes {
		r = max(r, len(s))
	}
	out := make([]int, r)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := r - len(s)
		for j, d := range s {
			o := &out[off+j]
			switch {
			case d == 1:
			case *o == 1:
				*o = d
			case d < 0:
				// unknown: it is 1 or *o; *o stays.
			case *o < 0:
				*o = d
			case *o != d:
				return nil, fmt.Errorf("shapes %v do not broadcast", shapes)
			}
		}
	}
	// A dim that saw only 1s and unknowns is unknown unless all were 1.
	for i := range out {
		if out[i] != 1 {
			continue
		}
		for _, s := range shapes {
			off := r - len(s)
			if i >= off && s[i-off] < 0 {
				out[i] = -1
				break
			}
		}
	}
	return out, nil
}
