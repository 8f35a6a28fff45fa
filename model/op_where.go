package model

func init() {
	RegisterOp(&Op{
		Type:       "Where",
		Versions:   []Version{{Since: 9, MinIn: 3, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"condition", "X", "Y"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &WhereAttrs{}, nil },
	})
}

// WhereAttrs are a Where node's attributes (it has none): the output is
// the multidirectional broadcast of the three inputs, with X's element
// type.
type WhereAttrs struct{}

// Infer implements Rule.
func (a *WhereAttrs) Infer(c *InferCtx) error {
	if err := c.Broadcast(0, 0, 1, 2); err != nil {
		return err
	}
	c.SetType(0, c.DType(1))
	return nil
}
