package model

func init() {
	RegisterOp(&Op{
		Type: "MeanVarianceNormalization",
		Versions: []Version{
			{Since: 9, MinIn: 1, MaxIn: 1, MaxOut: 1},
		},
		InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			axes, err := n.Ints("axes", []int64{0, 2, 3})
			if err != nil {
				return nil, err
			}
			return &MVNAttrs{Axes: axes}, nil
		},
	})
}

// MVNAttrs are a MeanVarianceNormalization node's attributes: X is
// normalised to zero mean and unit variance over Axes, for each index of
// the other dims: (X - E[X]) / sqrt(E[(X - E[X])²] + 1e-9), the epsilon
// of the op's function body.
type MVNAttrs struct {
	// Axes are the reduced axes, [0, 2, 3] by default; negative count
	// from the end, and one given twice counts once.
	Axes []int64
}

// Infer implements Rule.
func (a *MVNAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	r := c.Rank(0)
	if r < 0 {
		return nil
	}
	for _, ax := range a.Axes {
		if _, err := c.Axis(ax, r); err != nil {
			return err
		}
	}
	return nil
}
