package model

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// Value is what a rule knows of one input or output of a node.
type Value struct {
	DType payload.DType
	// Dims are the dims, -1 where unknown; nil when the rank is unknown
	// (Ranked false) or the value is a scalar.
	Dims   []int
	Ranked bool
	// Present is false for an absent optional input or output.
	Present bool
	// Kind is the kind of value (a tensor unless set); DType and Dims
	// describe a sequence's or optional's element tensor.
	Kind ValueKind

	ints    []int64
	floats  []float64
	hasInts bool
	hasFlts bool
	buf     []int // an output's dims buffer, reused across calls
}

// InferCtx is what a Rule sees: its node, the opset, what is known of
// each input (type, shape, and the contents of value inputs) and the
// outputs to set. The model package fills one at load from the graph;
// backends keep one per node and fill it at run time with the actual
// shapes (SetInput, SetInts, SetFloats), then read the outputs (Out).
//
// Nothing a rule calls allocates once the context's buffers have grown.
type InferCtx struct {
	node    *Node
	opset   int64
	runtime bool
	in      []Value
	out     []Value
	scratch []int
	// sink stands in for an output the node does not name, so that a
	// rule may set every output its op has on a node that lists fewer
	// (or none).
	sink Value
}

// NewInferCtx returns a context for n at opset, with room for its inputs
// and outputs. runtime selects the error kind of Errorf:
// errs.ShapeMismatch for a backend at run time, errs.InvalidArtifact for
// inference at load.
func NewInferCtx(n *Node, opset int64, runtime bool) *InferCtx {
	c := &InferCtx{node: n, opset: opset, runtime: runtime}
	c.in = make([]Value, len(n.Inputs))
	c.out = make([]Value, len(n.Outputs))
	for j, name := range n.Outputs {
		c.out[j].Present = name != ""
	}
	return c
}

// Node returns the node the context is for.
func (c *InferCtx) Node() *Node { return c.node }

// Opset returns the default-domain opset.
func (c *InferCtx) Opset() int64 { return c.opset }

// Runtime reports whether the context is a backend's at run time, where
// every input's shape is known.
func (c *InferCtx) Runtime() bool { return c.runtime }

// Errorf returns an error naming the node: errs.ShapeMismatch at run
// time, errs.InvalidArtifact at load.
func (c *InferCtx) Errorf(format string, args ...any) error {
	kind := errs.InvalidArtifact
	if c.runtime {
		kind = errs.ShapeMismatch
	}
	return errs.New(kind, "node %q (%s): %s", c.node.Label(), c.node.OpType, fmt.Sprintf(format, args...))
}

// --- Filling inputs (backends and InferTypes) ---

// SetInput records input i: its element type and dims (nil with ranked
// false for an unknown rank). dims is kept, not copied: it must not
// change until Infer returns. It clears the input's contents.
func (c *InferCtx) SetInput(i int, dt payload.DType, dims []int, ranked bool) {
	v := &c.in[i]
	v.DType, v.Dims, v.Ranked, v.Present, v.Kind = dt, dims, ranked, true, KindTensor
	v.hasInts, v.hasFlts = false, false
}

// SetInputKind records input i's kind of value, set after SetInput
// (which records a tensor).
func (c *InferCtx) SetInputKind(i int, k ValueKind) { c.in[i].Kind = k }

// Kind returns input i's kind of value (KindTensor when absent).
func (c *InferCtx) Kind(i int) ValueKind { return c.In(i).Kind }

// SetKind sets output j's kind of value.
func (c *InferCtx) SetKind(j int, k ValueKind) { c.Out(j).Kind = k }

// SetAbsent marks input i as not given.
func (c *InferCtx) SetAbsent(i int) { c.in[i] = Value{} }

// SetInts records the contents of integer input i. vals is kept, not
// copied.
func (c *InferCtx) SetInts(i int, vals []int64) {
	c.in[i].ints, c.in[i].hasInts = vals, true
}

// SetFloats records the contents of floating-point input i. vals is
// kept, not copied.
func (c *InferCtx) SetFloats(i int, vals []float64) {
	c.in[i].floats, c.in[i].hasFlts = vals, true
}

// Out returns output j as the rule left it. For an output the node does
// not name it returns a scratch value that nothing reads.
func (c *InferCtx) Out(j int) *Value {
	if j < len(c.out) {
		return &c.out[j]
	}
	return &c.sink
}

// --- Reading inputs (rules) ---

// NumIn returns the number of input slots the node has, absent ones
// included.
func (c *InferCtx) NumIn() int { return len(c.in) }

// NumOut returns the number of output slots.
func (c *InferCtx) NumOut() int { return len(c.out) }

// Has reports whether input i is given.
func (c *InferCtx) Has(i int) bool { return i < len(c.in) && c.in[i].Present }

// In returns input i; an absent one is the zero Value.
func (c *InferCtx) In(i int) *Value {
	if i < len(c.in) {
		return &c.in[i]
	}
	return &Value{}
}

// DType returns input i's element type, payload.Undefined when absent or
// unknown.
func (c *InferCtx) DType(i int) payload.DType { return c.In(i).DType }

// Dims returns input i's dims and whether its rank is known. The slice
// belongs to the context: read it, never write it.
func (c *InferCtx) Dims(i int) ([]int, bool) {
	v := c.In(i)
	if !v.Present || !v.Ranked {
		return nil, false
	}
	return v.Dims, true
}

// Rank returns input i's rank, or -1 when unknown or absent.
func (c *InferCtx) Rank(i int) int {
	v := c.In(i)
	if !v.Present || !v.Ranked {
		return -1
	}
	return len(v.Dims)
}

// Ints returns the contents of integer input i when they are known: a
// constant at load, the actual values at run time for the inputs a
// Version lists in Values.
func (c *InferCtx) Ints(i int) ([]int64, bool) {
	v := c.In(i)
	return v.ints, v.Present && v.hasInts
}

// Floats is Ints for floating-point inputs.
func (c *InferCtx) Floats(i int) ([]float64, bool) {
	v := c.In(i)
	return v.floats, v.Present && v.hasFlts
}

// --- Setting outputs (rules) ---

// SetType sets output j's element type.
func (c *InferCtx) SetType(j int, dt payload.DType) {
	if j < len(c.out) {
		c.out[j].DType = dt
	}
}

// OutDims sets output j's rank to r and returns its dims to fill in. The
// buffer is the context's and is reused: it is not cleared.
func (c *InferCtx) OutDims(j, r int) []int {
	o := c.Out(j) // the sink for an output the node does not name
	if cap(o.buf) < r {
		o.buf = make([]int, r, r+4)
	}
	o.Dims, o.Ranked = o.buf[:r], true
	return o.Dims
}

// SetDims sets output j's dims to a copy of dims.
func (c *InferCtx) SetDims(j int, dims []int) { copy(c.OutDims(j, len(dims)), dims) }

// SetUnranked says output j's rank is unknown.
func (c *InferCtx) SetUnranked(j int) {
	if j < len(c.out) {
		c.out[j].Dims, c.out[j].Ranked = nil, false
	}
}

// SetUnknownDims sets output j to rank r with every dim unknown.
func (c *InferCtx) SetUnknownDims(j, r int) {
	d := c.OutDims(j, r)
	for i := range d {
		d[i] = -1
	}
}

// Same sets output j to input i's type (kind of value included) and
// shape.
func (c *InferCtx) Same(j, i int) {
	c.SetType(j, c.DType(i))
	c.Out(j).Kind = c.In(i).Kind
	if d, ok := c.Dims(i); ok {
		c.SetDims(j, d)
	} else {
		c.SetUnranked(j)
	}
}

// SameShape sets output j to input i's shape and element type dt.
func (c *InferCtx) SameShape(j, i int, dt payload.DType) {
	c.Same(j, i)
	c.SetType(j, dt)
}

// Scratch returns a buffer of n ints owned by the context, zeroed, for a
// rule's bookkeeping (marks, permutations). One buffer: a rule that
// needs two splits it.
func (c *InferCtx) Scratch(n int) []int {
	s := c.growScratch(n)
	for i := range s {
		s[i] = 0
	}
	return s
}

func (c *InferCtx) growScratch(n int) []int {
	if cap(c.scratch) < n {
		c.scratch = make([]int, n, n+8)
	}
	return c.scratch[:n]
}

// --- Helpers shared by rules ---

// Axis normalizes axis a against rank r.
func (c *InferCtx) Axis(a int64, r int) (int, error) {
	if a < -int64(r) || a >= int64(r) {
		return 0, c.Errorf("axis %d out of range for rank %d", a, r)
	}
	if a < 0 {
		a += int64(r)
	}
	return int(a), nil
}

// Dim converts v to a dim, refusing negatives and values too large.
func (c *InferCtx) Dim(v int64, what string) (int, error) {
	if v < 0 || v > int64(maxDimValue) {
		return 0, c.Errorf("%s: dimension %d out of range", what, v)
	}
	return int(v), nil
}

// maxDimValue bounds every dim and element count a rule computes.
const maxDimValue = int(^uint(0) >> 2)

// Broadcast sets output j to the multidirectional broadcast of the shapes
// of the inputs listed (all present inputs when idx is empty), with the
// element type of the first of them. An unknown rank makes the result's
// unknown.
func (c *InferCtx) Broadcast(j int, idx ...int) error {
	all := len(idx) == 0
	n := len(idx)
	if all {
		n = len(c.in)
	}
	r, first := 0, -1
	for k := range n {
		i := k
		if !all {
			i = idx[k]
		}
		if !c.Has(i) {
			continue
		}
		if first < 0 {
			first = i
		}
		d, ok := c.Dims(i)
		if !ok {
			c.SetType(j, c.DType(first))
			c.SetUnranked(j)
			return nil
		}
		r = max(r, len(d))
	}
	if first < 0 {
		return c.Errorf("no inputs to broadcast")
	}
	c.SetType(j, c.DType(first))
	out := c.OutDims(j, r)
	for i := range out {
		out[i] = 1
	}
	for k := range n {
		i := k
		if !all {
			i = idx[k]
		}
		if !c.Has(i) {
			continue
		}
		s, _ := c.Dims(i)
		off := r - len(s)
		for q, d := range s {
			o := &out[off+q]
			switch {
			case d == 1:
			case *o == 1:
				*o = d
			case d < 0:
				// unknown: it is 1 or *o, which stays.
			case *o < 0:
				*o = d
			case *o != d:
				return c.broadcastErr(idx)
			}
		}
	}
	// A dim that saw only 1s and unknowns is unknown.
	for q := range out {
		if out[q] != 1 {
			continue
		}
		for k := range n {
			i := k
			if !all {
				i = idx[k]
			}
			s, ok := c.Dims(i)
			if !ok {
				continue
			}
			if off := r - len(s); q >= off && s[q-off] < 0 {
				out[q] = -1
				break
			}
		}
	}
	return nil
}

// broadcastErr describes shapes that do not broadcast; it runs on the
// failure path only.
func (c *InferCtx) broadcastErr(idx []int) error {
	var shapes [][]int
	for i := range c.in {
		if len(idx) > 0 && !containsInt(idx, i) {
			continue
		}
		if d, ok := c.Dims(i); ok {
			shapes = append(shapes, d)
		}
	}
	return c.Errorf("shapes %v do not broadcast", shapes)
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// VecLen returns the static length of 1-D input i, or -1.
func (c *InferCtx) VecLen(i int) int {
	d, ok := c.Dims(i)
	if !ok || len(d) != 1 {
		return -1
	}
	return d[0]
}

// RankOK refuses a rank below 0 or above the largest lintel handles.
func (c *InferCtx) RankOK(r int) error {
	if r < 0 || r > maxRank {
		return c.Errorf("rank %d out of range", r)
	}
	return nil
}

// Numel returns the product of dims: known is false when a dim is
// unknown and none is 0. It refuses a product that overflows.
func (c *InferCtx) Numel(dims []int) (n int, known bool, err error) {
	p, unknown := 1, false
	for _, d := range dims {
		switch {
		case d == 0:
			return 0, true, nil
		case d < 0:
			unknown = true
		case p > maxDimValue/d:
			return 0, false, c.Errorf("shape %v: element count overflows", dims)
		default:
			p *= d
		}
	}
	if unknown {
		return -1, false, nil
	}
	return p, true, nil
}

// MarkAxes normalizes axes against rank r into marks (len r, zeroed by
// the caller), setting marks[a] to 1 for each, and refuses axes out of
// range or repeated.
func (c *InferCtx) MarkAxes(axes []int64, r int, marks []int) error {
	for _, a := range axes {
		x, err := c.Axis(a, r)
		if err != nil {
			return err
		}
		if marks[x] != 0 {
			return c.Errorf("axis %d repeated", a)
		}
		marks[x] = 1
	}
	return nil
}
