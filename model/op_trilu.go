package model

func init() {
	RegisterOp(&Op{
		Type:       "Trilu",
		Versions:   []Version{{Since: 14, MinIn: 1, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"input", "k"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			u, err := n.Int("upper", 1)
			if err != nil {
				return nil, err
			}
			return &TriluAttrs{Upper: u != 0}, nil
		},
	})
}

// TriluAttrs are a Trilu node's attributes. The output has the input's
// shape, rank 2 or more: the upper or lower triangle of each matrix of
// the last two dims, shifted by the scalar k (input 1), zero elsewhere.
type TriluAttrs struct {
	// Upper keeps the upper triangle (the default), else the lower one.
	Upper bool
}

// Infer implements Rule.
func (a *TriluAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if r := c.Rank(0); r >= 0 && r < 2 {
		return c.Errorf("input rank %d, want 2 or more", r)
	}
	if d, ok := c.Dims(1); ok {
		if n, known, err := c.Numel(d); err == nil && known && n != 1 {
			return c.Errorf("k has shape %v: it must be a scalar", d)
		}
	}
	return nil
}
