package model

func init() {
	RegisterOp(&Op{
		Type: "LRN",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
		},
		InputNames: []string{"X"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &LRNAttrs{}
			if !n.Has("size") {
				return nil, attrMissing(n, "size")
			}
			var err error
			if a.Size, err = n.Int("size", 0); err != nil {
				return nil, err
			}
			if a.Size <= 0 {
				return nil, attrErr(n, "size must be positive, got %d", a.Size)
			}
			if a.Alpha, err = n.Float("alpha", 1e-4); err != nil {
				return nil, err
			}
			if a.Beta, err = n.Float("beta", 0.75); err != nil {
				return nil, err
			}
			if a.Bias, err = n.Float("bias", 1); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// LRNAttrs are an LRN node's attributes. Each element of the N×C×D1×…
// input is divided by (Bias + Alpha/Size · Σ x²)^Beta, the sum over the
// Size channels around it: from c-⌊(Size-1)/2⌋ to c+⌈(Size-1)/2⌉, clipped
// to the channels there are.
type LRNAttrs struct {
	Size              int64
	Alpha, Beta, Bias float32
}

// Infer implements Rule.
func (a *LRNAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if r := c.Rank(0); r >= 0 && r < 2 {
		return c.Errorf("input must have rank 2 or more (N×C×D1×…), got rank %d", r)
	}
	return nil
}
