package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "StringConcat",
		Versions:   []Version{{Since: 20, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"X", "Y"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &StringConcatAttrs{}, nil },
	})
}

// StringConcatAttrs are a StringConcat node's attributes (it has none).
// The output is the elementwise concatenation of two string tensors,
// broadcast multidirectionally.
type StringConcatAttrs struct{}

// Infer implements Rule.
func (a *StringConcatAttrs) Infer(c *InferCtx) error {
	for i := range 2 {
		if dt := c.DType(i); dt != payload.String && dt != payload.Undefined {
			return c.Errorf("input %d has element type %s, want string", i, dt)
		}
	}
	if err := c.Broadcast(0, 0, 1); err != nil {
		return err
	}
	c.SetType(0, payload.String)
	return nil
}
