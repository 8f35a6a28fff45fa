package model

func init() {
	RegisterOp(&Op{
		Type: "Det",
		Versions: []Version{
			{Since: 11, MinIn: 1, MaxIn: 1, MaxOut: 1},
		},
		InputNames: []string{"X"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &DetAttrs{}, nil },
	})
}

// DetAttrs is a Det node's rule; the op has no attributes. The input is
// one M×M matrix or a batch of them (…×M×M); the output holds each
// matrix's determinant, with the batch dims.
type DetAttrs struct{}

// Infer implements Rule.
func (a *DetAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	r := len(x)
	if r < 2 || dimsConflict(x[r-2], x[r-1]) {
		return c.Errorf("input %v must be a square matrix or a batch of them", x)
	}
	c.SetDims(0, x[:r-2])
	return nil
}
