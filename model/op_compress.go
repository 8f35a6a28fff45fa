package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "Compress",
		Versions:   []Version{{Since: 9, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"input", "condition"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &CompressAttrs{HasAxis: n.Has("axis")}
			var err error
			if a.Axis, err = n.Int("axis", 0); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// CompressAttrs are a Compress node's attributes. The output keeps the
// slices of the input along Axis (of the flattened input without one)
// whose entry in the 1-D bool condition is true; a condition shorter
// than the axis drops the slices past its end. How many there are
// depends on the condition's contents: the rule leaves that dim unknown
// (-1) and backends fill it in.
type CompressAttrs struct {
	// HasAxis is set when the axis attribute is.
	HasAxis bool
	// Axis is the axis compressed; negatives count from the end.
	Axis int64
}

// Infer implements Rule.
func (a *CompressAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if dt := c.DType(1); dt != payload.Bool && dt != payload.Undefined {
		return c.Errorf("condition has element type %s, want bool", dt)
	}
	if r := c.Rank(1); r >= 0 && r != 1 {
		return c.Errorf("condition has rank %d, want 1", r)
	}
	if !a.HasAxis {
		c.SetUnknownDims(0, 1)
		return nil
	}
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	ax, err := c.Axis(a.Axis, len(x))
	if err != nil {
		return err
	}
	c.SetDims(0, x)
	c.Out(0).Dims[ax] = -1
	return nil
}
