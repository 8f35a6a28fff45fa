package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
)

// Ops whose attributes meant something else before opset 7. Their
// builders either implement the old meaning here or refuse it; none runs
// an old node as its newer namesake would when the two differ.

// legacyBroadcast wraps the builder of a two-input elementwise op for the
// broadcast and axis attributes it had before opset 7: with broadcast=1,
// B is broadcast onto A with its dims aligned to A's from axis on (the
// trailing dims when axis is absent, as numpy does). Where axis puts B
// elsewhere, the kernel sees B with trailing 1s appended.
func legacyBroadcast(b builder) builder {
	return func(c *buildCtx) (kernel, error) {
		if c.opset >= 7 || !c.n.Has("axis") {
			return b(c)
		}
		if bc, err := c.n.Int("broadcast", 0); err != nil {
			return nil, err
		} else if bc == 0 {
			return b(c)
		}
		axis, err := c.n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		if len(c.in) < 2 || !c.in[0].RankKnown || !c.in[1].RankKnown {
			return nil, c.unsupported("broadcast along axis %d (opset %d) with inputs of unknown rank", axis, c.opset)
		}
		ra, rb := len(c.in[0].Shape), len(c.in[1].Shape)
		if axis < 0 {
			axis += int64(ra)
		}
		if axis < 0 || axis+int64(rb) > int64(ra) {
			return nil, c.invalid("axis %d does not fit input B of rank %d in input A of rank %d", axis, rb, ra)
		}
		trail := ra - int(axis) - rb
		if trail == 0 {
			return b(c)
		}
		if axis == 0 {
			// B would vary along the batch axis, which InferBatch stacks.
			return nil, c.unsupported("broadcast along axis 0 (opset %d)", c.opset)
		}
		k, err := b(c)
		if err != nil {
			return nil, err
		}
		return &axisBroadcast{k: k, trail: trail}, nil
	}
}

// axisBroadcast runs k with input 1 viewed with trail trailing 1s.
type axisBroadcast struct {
	k     kernel
	trail int
	view  tensor
	shp   []int
	ins   []*tensor
}

// views returns in with input 1 replaced by its padded view.
func (a *axisBroadcast) views(in []*tensor) []*tensor {
	a.shp = append(a.shp[:0], in[1].shape...)
	for i := 0; i < a.trail; i++ {
		a.shp = append(a.shp, 1)
	}
	a.view = *in[1]
	a.view.shape = a.shp
	a.ins = append(a.ins[:0], in...)
	a.ins[1] = &a.view
	return a.ins
}

func (a *axisBroadcast) shape(in, out []*tensor) error {
	if s, ok := a.k.(shaper); ok {
		return s.shape(a.views(in), out)
	}
	return nil
}

func (a *axisBroadcast) run(in, out []*tensor) error { return a.k.run(a.views(in), out) }

// lpPoolP reads LpPool's and GlobalLpPool's p: an int, or before opset 2
// a float (both default to 2), which must then be a whole number.
func (c *buildCtx) lpPoolP() (int64, error) {
	if c.opset >= 2 {
		return c.n.Int("p", 2)
	}
	if a := c.n.Attr("p"); a != nil && a.Type == model.AttrInt {
		return a.I, nil
	}
	p, err := c.n.Float("p", 2)
	if err != nil {
		return 0, err
	}
	if p != float32(math.Trunc(float64(p))) || p < 1 || p > 1<<20 {
		return 0, c.unsupported("p %v (opset %d): only whole numbers", p, c.opset)
	}
	return int64(p), nil
}

// preluSlopeNumpy reports whether PRelu's slope broadcasts the same way
// before opset 7 as after: it holds one value or has the input's shape.
func preluSlopeNumpy(c *buildCtx) bool {
	x, s := c.in[0], c.in[1]
	if !s.RankKnown {
		return false
	}
	one := true
	for _, d := range s.Shape {
		one = one && d == 1
	}
	if one {
		return true
	}
	if !x.RankKnown || len(x.Shape) != len(s.Shape) {
		return false
	}
	for i, d := range s.Shape {
		if d < 0 || d != x.Shape[i] {
			return false
		}
	}
	return true
}
