package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "Dropout",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 2},
			{Since: 12, MinIn: 1, MaxIn: 3, MaxOut: 2},
		},
		InputNames: []string{"data", "ratio", "training_mode"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &DropoutAttrs{BoolMask: opset >= 10}
			if opset < 7 {
				t, err := n.Int("is_test", 0)
				if err != nil {
					return nil, err
				}
				a.Training = t == 0
			}
			if opset < 12 {
				r, err := n.Float("ratio", 0.5)
				if err != nil {
					return nil, err
				}
				if r < 0 || r >= 1 || r != r {
					return nil, invalidAttr(n, "ratio must be in [0, 1), got %v", r)
				}
			}
			return a, nil
		},
	})
}

// DropoutAttrs are a Dropout node's attributes. Output 0 has the data's
// shape and type; the optional mask, output 1, has its shape, with the
// data's type before opset 10 and bool after.
type DropoutAttrs struct {
	// Training is set before opset 7 when is_test is 0 (its default): the
	// node drops elements at random.
	Training bool
	// BoolMask is set from opset 10, where the mask is bool.
	BoolMask bool
}

// Infer implements Rule.
func (a *DropoutAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if c.NumOut() > 1 {
		c.Same(1, 0)
		if a.BoolMask {
			c.SetType(1, payload.Bool)
		}
	}
	return nil
}
