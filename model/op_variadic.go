package model

func init() {
	for _, name := range []string{"Min", "Max", "Sum", "Mean"} {
		RegisterOp(&Op{
			Type:       name,
			Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: Many, MaxOut: 1}},
			InputNames: []string{"data_0"},
			Bind: func(n *Node, opset int64) (Rule, error) {
				return &VariadicAttrs{Broadcast: opset >= 8}, nil
			},
		})
	}
}

// VariadicAttrs are the attributes of Min, Max, Sum and Mean: from opset
// 8 the output is the multidirectional broadcast of every input's shape;
// before, every input has the same shape.
type VariadicAttrs struct {
	// Broadcast is set from opset 8, where the inputs broadcast.
	Broadcast bool
}

// Infer implements Rule.
func (a *VariadicAttrs) Infer(c *InferCtx) error {
	if a.Broadcast {
		return c.Broadcast(0)
	}
	return c.equalShapes(0, c.NumIn())
}
