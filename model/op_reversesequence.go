package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "ReverseSequence",
		Versions:   []Version{{Since: 10, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"input", "sequence_lens"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ReverseSequenceAttrs{}
			var err error
			if a.BatchAxis, err = n.Int("batch_axis", 1); err != nil {
				return nil, err
			}
			if a.TimeAxis, err = n.Int("time_axis", 0); err != nil {
				return nil, err
			}
			if a.BatchAxis < 0 || a.BatchAxis > 1 || a.TimeAxis < 0 || a.TimeAxis > 1 || a.BatchAxis == a.TimeAxis {
				return nil, invalidAttr(n, "batch_axis %d and time_axis %d: want 0 and 1 in either order", a.BatchAxis, a.TimeAxis)
			}
			return a, nil
		},
	})
}

// ReverseSequenceAttrs are a ReverseSequence node's attributes. For each
// batch item b, the output reverses the first sequence_lens[b] slices of
// the input along TimeAxis and copies the rest.
type ReverseSequenceAttrs struct {
	// BatchAxis and TimeAxis are 0 and 1 in either order.
	BatchAxis, TimeAxis int64
}

// Infer implements Rule.
func (a *ReverseSequenceAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("sequence_lens has element type %s, want int64", dt)
	}
	x, ok := c.Dims(0)
	if ok && len(x) < 2 {
		return c.Errorf("the input has rank %d, want 2 or more", len(x))
	}
	if r := c.Rank(1); r >= 0 && r != 1 {
		return c.Errorf("sequence_lens has rank %d, want 1", r)
	}
	if l := c.VecLen(1); ok && l >= 0 && x[a.BatchAxis] >= 0 && l != x[a.BatchAxis] {
		return c.Errorf("sequence_lens has %d elements, the batch axis %d", l, x[a.BatchAxis])
	}
	return nil
}
