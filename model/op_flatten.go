package model

func init() {
	RegisterOp(&Op{
		Type:       "Flatten",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a, err := n.Int("axis", 1)
			if err != nil {
				return nil, err
			}
			return &FlattenAttrs{Axis: a}, nil
		},
	})
}

// FlattenAttrs are a Flatten node's attributes. The output is 2-D: the
// product of the input's dims before Axis, then the product of the rest.
type FlattenAttrs struct {
	// Axis splits the dims, in [-rank, rank]; negatives count from the
	// end.
	Axis int64
}

// Infer implements Rule.
func (a *FlattenAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	s, ok := c.Dims(0)
	if !ok {
		c.SetUnknownDims(0, 2)
		return nil
	}
	r := len(s)
	ax := a.Axis
	if ax < -int64(r) || ax > int64(r) {
		return c.Errorf("axis %d out of range for rank %d", ax, r)
	}
	if ax < 0 {
		ax += int64(r)
	}
	outer, _, err := c.Numel(s[:ax])
	if err != nil {
		return err
	}
	inner, _, err := c.Numel(s[ax:])
	if err != nil {
		return err
	}
	out := c.OutDims(0, 2)
	out[0], out[1] = outer, inner
	return nil
}
