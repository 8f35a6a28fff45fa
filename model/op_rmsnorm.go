package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "RMSNormalization",
		Versions: []Version{
			{Since: 23, MinIn: 2, MaxIn: 2, MaxOut: 1},
		},
		InputNames: []string{"X", "scale"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &RMSNormAttrs{}
			var err error
			if a.Axis, a.Epsilon, a.StashType, err = normAttrs(n); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// RMSNormAttrs are an RMSNormalization node's attributes. Each row of
// X's dims from Axis on is divided by its root mean square (with
// Epsilon added to the mean of squares) and multiplied by scale. Y has
// X's shape and scale's element type.
type RMSNormAttrs struct {
	// Axis is the first normalised dim; negative counts from the end.
	Axis int64
	// Epsilon is added to the mean of squares.
	Epsilon float32
	// StashType is the element type the statistics are computed in.
	StashType payload.DType
}

// Infer implements Rule.
func (a *RMSNormAttrs) Infer(c *InferCtx) error {
	c.SameShape(0, 0, c.DType(1))
	if x, ok := c.Dims(0); ok {
		if _, err := c.Axis(a.Axis, len(x)); err != nil {
			return err
		}
	}
	return nil
}
