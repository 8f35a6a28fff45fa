package model

import "math"

func init() {
	RegisterOp(&Op{
		Type:       "OneHot",
		Versions:   []Version{{Since: 9, MinIn: 3, MaxIn: 3, MaxOut: 1, Values: []int{1}}},
		InputNames: []string{"indices", "depth", "values"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a, err := n.Int("axis", -1)
			if err != nil {
				return nil, err
			}
			return &OneHotAttrs{Axis: a}, nil
		},
	})
}

// OneHotAttrs are a OneHot node's attributes. The output inserts a dim of
// size depth (input 1, a one-element number, truncated to an integer)
// into the indices' shape at Axis; an element is the on value (values[1])
// where its coordinate on that dim equals the index there, negative
// indices counting from depth, and the off value (values[0]) elsewhere.
// It has the values' element type.
type OneHotAttrs struct {
	// Axis is where the new dim goes, counted in the output's rank;
	// negatives count from the end.
	Axis int64
}

// Infer implements Rule.
func (a *OneHotAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(2))
	if d, ok := c.Dims(1); ok && (len(d) > 1 || len(d) == 1 && d[0] >= 0 && d[0] != 1) {
		return c.Errorf("depth has shape %v, want one element", d)
	}
	if d, ok := c.Dims(2); ok && (len(d) != 1 || d[0] >= 0 && d[0] != 2) {
		return c.Errorf("values has shape %v, want [2]", d)
	}
	depth := -1
	var dv float64
	known := false
	if v, ok := c.Ints(1); ok && len(v) == 1 {
		dv, known = float64(v[0]), true
	} else if v, ok := c.Floats(1); ok && len(v) == 1 {
		dv, known = math.Trunc(v[0]), true
	}
	if known {
		if !(dv >= 1 && dv <= float64(maxDimValue)) {
			return c.Errorf("depth %v is not a positive dimension", dv)
		}
		depth = int(dv)
	}
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	r := len(x) + 1
	if err := c.RankOK(r); err != nil {
		return err
	}
	ax, err := c.Axis(a.Axis, r)
	if err != nil {
		return err
	}
	out := c.OutDims(0, r)
	copy(out, x[:ax])
	out[ax] = depth
	copy(out[ax+1:], x[ax:])
	return nil
}
