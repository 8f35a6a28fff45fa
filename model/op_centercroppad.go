package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "CenterCropPad",
		Versions:   []Version{{Since: 18, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}}},
		InputNames: []string{"input_data", "shape"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			axes, err := n.Ints("axes", nil)
			if err != nil {
				return nil, err
			}
			return &CenterCropPadAttrs{Axes: axes}, nil
		},
	})
}

// CenterCropPadAttrs are a CenterCropPad node's attributes. Each axis the
// shape input names is cropped or zero-padded about its centre to the
// shape's size (an odd difference leaves the extra element at the end);
// the other axes are kept.
type CenterCropPadAttrs struct {
	// Axes is axes: the axes the shape input's sizes are for; nil for
	// all of them.
	Axes []int64
}

// Infer implements Rule.
func (a *CenterCropPadAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if dt := c.DType(1); dt != payload.Int64 && dt != payload.Int32 && dt != payload.Undefined {
		return c.Errorf("the shape input has element type %s: it must hold int32 or int64", dt)
	}
	if r := c.Rank(1); r >= 0 && r != 1 {
		return c.Errorf("the shape input has rank %d, want 1", r)
	}
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	r := len(x)
	marks := c.Scratch(r)
	m := r
	if a.Axes != nil {
		m = len(a.Axes)
		if err := c.MarkAxes(a.Axes, r, marks); err != nil {
			return err
		}
	}
	if l := c.VecLen(1); l >= 0 && l != m {
		return c.Errorf("the shape input has %d values for %d axes", l, m)
	}
	out := c.OutDims(0, r)
	copy(out, x)
	sizes, known := c.Ints(1)
	for j := range m {
		d := j
		if a.Axes != nil {
			d, _ = c.Axis(a.Axes[j], r)
		}
		if !known {
			out[d] = -1
			continue
		}
		v, err := c.Dim(sizes[j], "shape")
		if err != nil {
			return err
		}
		out[d] = v
	}
	return checkNumel(c, out)
}
