package model

func init() {
	RegisterOp(&Op{
		Type: "LpNormalization",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
		},
		InputNames: []string{"input"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &LpNormAttrs{}
			var err error
			if a.Axis, err = n.Int("axis", -1); err != nil {
				return nil, err
			}
			if a.P, err = n.Int("p", 2); err != nil {
				return nil, err
			}
			if a.P != 1 && a.P != 2 {
				return nil, attrErr(n, "p must be 1 or 2, got %d", a.P)
			}
			return a, nil
		},
	})
}

// LpNormAttrs are an LpNormalization node's attributes: each vector
// along Axis is divided by its L1 or L2 norm. The output has the input's
// shape.
type LpNormAttrs struct {
	// Axis is the normalised axis, -1 by default; negative counts from
	// the end.
	Axis int64
	// P is the norm's order: 1 or 2 (the default).
	P int64
}

// Infer implements Rule.
func (a *LpNormAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if r := c.Rank(0); r >= 0 {
		if _, err := c.Axis(a.Axis, r); err != nil {
			return err
		}
	}
	return nil
}
