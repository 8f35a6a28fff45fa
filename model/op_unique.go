package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "Unique",
		Versions:   []Version{{Since: 11, MinIn: 1, MaxIn: 1, MaxOut: 4}},
		InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &UniqueAttrs{HasAxis: n.Has("axis")}
			var err error
			if a.Axis, err = n.Int("axis", 0); err != nil {
				return nil, err
			}
			if a.Sorted, err = flagAttr(n, "sorted", true); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// UniqueAttrs are a Unique node's attributes. The outputs are the
// distinct elements of the input (or, with an axis, its distinct slices
// along it), the index of each one's first occurrence, the index into
// them of each input element (slice), and how often each occurs; the last
// three are int64. How many there are depends on the input's contents:
// the rule leaves that dim unknown (-1) and backends fill it in.
type UniqueAttrs struct {
	// HasAxis is set when the axis attribute is; without it the input is
	// flattened.
	HasAxis bool
	// Axis is the axis whose slices are compared; negatives count from
	// the end.
	Axis int64
	// Sorted orders the outputs by ascending value (lexicographically for
	// slices); otherwise they keep the order of first occurrence.
	Sorted bool
}

// Infer implements Rule.
func (a *UniqueAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	for j := 1; j < 4; j++ {
		c.SetType(j, payload.Int64)
	}
	x, ok := c.Dims(0)
	if !ok {
		if a.HasAxis {
			c.SetUnranked(0)
		} else {
			c.SetUnknownDims(0, 1)
		}
		for j := 1; j < 4; j++ {
			c.SetUnknownDims(j, 1)
		}
		return nil
	}
	inv := -1
	if a.HasAxis {
		ax, err := c.Axis(a.Axis, len(x))
		if err != nil {
			return err
		}
		c.SetDims(0, x)
		c.Out(0).Dims[ax] = -1
		inv = x[ax]
	} else {
		c.SetUnknownDims(0, 1)
		n, known, err := c.Numel(x)
		if err != nil {
			return err
		}
		if known {
			inv = n
		}
	}
	c.SetUnknownDims(1, 1)
	c.OutDims(2, 1)[0] = inv
	c.SetUnknownDims(3, 1)
	return nil
}
