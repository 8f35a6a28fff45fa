package model

func init() {
	RegisterOp(&Op{
		Type: "InstanceNormalization",
		Versions: []Version{
			{Since: 1, MinIn: 3, MaxIn: 3, MaxOut: 1},
		},
		InputNames: []string{"input", "scale", "B"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			eps, err := n.Float("epsilon", 1e-5)
			if err != nil {
				return nil, err
			}
			return &InstanceNormAttrs{Epsilon: eps}, nil
		},
	})
}

// InstanceNormAttrs are an InstanceNormalization node's attributes. Each
// (N, C) plane of the N×C×D1×… input is normalised by its own mean and
// variance, then scaled and shifted by the channel's scale and B.
type InstanceNormAttrs struct {
	// Epsilon is added to the variance.
	Epsilon float32
}

// Infer implements Rule.
func (a *InstanceNormAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	x, ok := c.Dims(0)
	if !ok {
		return nil
	}
	if len(x) < 3 {
		return c.Errorf("input %v must have rank 3 or more (N×C×D1×…)", x)
	}
	for i := 1; i < 3; i++ {
		if p, ok := c.Dims(i); ok && (len(p) != 1 || dimsConflict(p[0], x[1])) {
			return c.Errorf("input %d has shape %v, want [%d] for input %v", i, p, x[1], x)
		}
	}
	return nil
}
