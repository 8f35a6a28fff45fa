package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "Expand",
		Versions:   []Version{{Since: 8, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}}},
		InputNames: []string{"input", "shape"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &ExpandAttrs{}, nil },
	})
}

// ExpandAttrs are an Expand node's attributes (it has none). The output
// shape is the multidirectional broadcast of the input's shape and the
// dims the shape input holds.
type ExpandAttrs struct{}

// Infer implements Rule.
func (a *ExpandAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("the shape input has element type %s: it must hold int64", dt)
	}
	if r := c.Rank(1); r >= 0 && r != 1 {
		return c.Errorf("the shape input has rank %d, want 1", r)
	}
	s, known := c.Dims(0)
	shp, ok := c.Ints(1)
	if !ok {
		if l := c.VecLen(1); l >= 0 && known {
			if err := c.RankOK(l); err != nil {
				return err
			}
			c.SetUnknownDims(0, max(l, len(s)))
			return nil
		}
		c.SetUnranked(0)
		return nil
	}
	if err := c.RankOK(len(shp)); err != nil {
		return err
	}
	for _, x := range shp {
		if _, err := c.Dim(x, "shape"); err != nil {
			return err
		}
	}
	if !known {
		c.SetUnranked(0)
		return nil
	}
	r := max(len(s), len(shp))
	out := c.OutDims(0, r)
	for i := range out {
		out[i] = 1
	}
	for i, d := range s {
		out[r-len(s)+i] = d
	}
	off := r - len(shp)
	for i, x := range shp {
		o := &out[off+i]
		d := int(x)
		switch {
		case d == 1:
			// The input's dim stays, known or not.
		case *o == 1:
			*o = d
		case *o < 0:
			*o = d
		case *o != d:
			return c.Errorf("shapes %v and %v do not broadcast", s, shp)
		}
	}
	return nil
}
