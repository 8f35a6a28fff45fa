package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	bind := func(prod bool) func(n *Node, opset int64) (Rule, error) {
		return func(n *Node, opset int64) (Rule, error) {
			a := &CumulativeAttrs{Prod: prod}
			var err error
			if a.Exclusive, err = flagAttr(n, "exclusive", false); err != nil {
				return nil, err
			}
			if a.Reverse, err = flagAttr(n, "reverse", false); err != nil {
				return nil, err
			}
			return a, nil
		}
	}
	RegisterOp(&Op{
		Type:       "CumSum",
		Versions:   []Version{{Since: 11, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"x", "axis"},
		Bind:       bind(false),
	})
	RegisterOp(&Op{
		Type:       "CumProd",
		Versions:   []Version{{Since: 26, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"x", "axis"},
		Bind:       bind(true),
	})
}

// CumulativeAttrs are a CumSum or CumProd node's attributes. The output
// has the input's shape: element i along the axis (input 1, a scalar or
// one-element int32 or int64 tensor) is the sum (product) of the
// elements up to i.
type CumulativeAttrs struct {
	// Prod selects CumProd.
	Prod bool
	// Exclusive leaves element i out of its own sum (the first is 0, or 1
	// for a product).
	Exclusive bool
	// Reverse accumulates from the end of the axis.
	Reverse bool
}

// Infer implements Rule.
func (a *CumulativeAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if dt := c.DType(1); dt != payload.Int32 && dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("the axis input has element type %s, want int32 or int64", dt)
	}
	if d, ok := c.Dims(1); ok && (len(d) > 1 || len(d) == 1 && d[0] >= 0 && d[0] != 1) {
		return c.Errorf("the axis input has shape %v, want a scalar", d)
	}
	v, ok := c.Ints(1)
	x, known := c.Dims(0)
	if ok && known && len(v) == 1 {
		if _, err := c.Axis(v[0], len(x)); err != nil {
			return err
		}
	}
	return nil
}
