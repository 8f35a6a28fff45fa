package model

func init() {
	RegisterOp(&Op{
		Type: "SwiGLU",
		Versions: []Version{
			{Since: 28, MinIn: 2, MaxIn: 2, MaxOut: 1},
		},
		InputNames: []string{"A", "B"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &SwiGLUAttrs{}
			var err error
			if a.Alpha, err = n.Float("alpha", 1); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// SwiGLUAttrs are a SwiGLU node's attributes. Y = Swish(A)·B, with
// Swish(a) = a·sigmoid(Alpha·a); A and B have the same shape (no
// broadcasting), which Y takes.
type SwiGLUAttrs struct {
	// Alpha scales the gate inside the sigmoid.
	Alpha float32
}

// Infer implements Rule.
func (a *SwiGLUAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	x, okx := c.Dims(0)
	y, oky := c.Dims(1)
	if !okx || !oky {
		if oky {
			c.SetDims(0, y)
		}
		return nil
	}
	if len(x) != len(y) {
		return c.Errorf("A %v and B %v differ in shape", x, y)
	}
	out := c.OutDims(0, len(x))
	for i := range x {
		if dimsConflict(x[i], y[i]) {
			return c.Errorf("A %v and B %v differ in shape", x, y)
		}
		out[i] = max(x[i], y[i])
	}
	return nil
}
