package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "EyeLike",
		Versions:   []Version{{Since: 9, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"input"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &EyeLikeAttrs{}
			var err error
			if a.K, err = n.Int("k", 0); err != nil {
				return nil, err
			}
			dt, err := n.Int("dtype", 0)
			if err != nil {
				return nil, err
			}
			if dt != 0 {
				if dt < 0 || dt > maxONNXDType {
					return nil, invalidAttr(n, "dtype %d is not an element type", dt)
				}
				a.DType = payload.DType(dt)
			}
			return a, nil
		},
	})
}

// EyeLikeAttrs are an EyeLike node's attributes. The output has the 2-D
// input's shape and holds ones on the diagonal shifted by K (element
// [i, i+K]) and zeros elsewhere.
type EyeLikeAttrs struct {
	// DType is the output's element type; Undefined: the input's.
	DType payload.DType
	// K shifts the diagonal: positive above the main one, negative below.
	K int64
}

// Infer implements Rule.
func (a *EyeLikeAttrs) Infer(c *InferCtx) error {
	dt := a.DType
	if dt == payload.Undefined {
		dt = c.DType(0)
	}
	c.SameShape(0, 0, dt)
	if r := c.Rank(0); r >= 0 && r != 2 {
		return c.Errorf("the input has rank %d, want 2", r)
	}
	return nil
}
