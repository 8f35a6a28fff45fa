package model

func init() {
	// Hardmax shares Softmax's attributes and rule: the axis defaults to
	// 1 and coerces the input to 2-D before opset 13, and is one axis,
	// -1 by default, from then on.
	RegisterOp(&Op{
		Type: "Hardmax",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
		},
		InputNames: []string{"input"},
		Bind:       bindSoftmax,
	})
}
