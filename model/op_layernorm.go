package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "LayerNormalization",
		Versions: []Version{
			{Since: 17, MinIn: 2, MaxIn: 3, MaxOut: 3},
		},
		InputNames: []string{"X", "Scale", "B"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &LayerNormAttrs{}
			var err error
			if a.Axis, a.Epsilon, a.StashType, err = normAttrs(n); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// LayerNormAttrs are a LayerNormalization node's attributes. Each row of
// X's dims from Axis on is normalised to zero mean and unit variance,
// then multiplied by Scale and shifted by B. The optional outputs Mean
// and InvStdDev hold each row's statistics, with X's shape and 1 from
// Axis on.
type LayerNormAttrs struct {
	// Axis is the first normalised dim; negative counts from the end.
	Axis int64
	// Epsilon is added to the variance.
	Epsilon float32
	// StashType is the element type of Mean and InvStdDev.
	StashType payload.DType
}

// Infer implements Rule.
func (a *LayerNormAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	x, ok := c.Dims(0)
	ax := 0
	if ok {
		var err error
		if ax, err = c.Axis(a.Axis, len(x)); err != nil {
			return err
		}
	}
	for j := 1; j < c.NumOut(); j++ {
		c.SetType(j, a.StashType)
		if !ok {
			c.SetUnranked(j)
			continue
		}
		s := c.OutDims(j, len(x))
		copy(s, x[:ax])
		for i := ax; i < len(s); i++ {
			s[i] = 1
		}
	}
	return nil
}

// normAttrs reads the attributes LayerNormalization and RMSNormalization
// share: axis (default -1), epsilon (1e-5) and stash_type (float32).
func normAttrs(n *Node) (axis int64, eps float32, stash payload.DType, err error) {
	if axis, err = n.Int("axis", -1); err != nil {
		return 0, 0, 0, err
	}
	if eps, err = n.Float("epsilon", 1e-5); err != nil {
		return 0, 0, 0, err
	}
	st, err := n.Int("stash_type", int64(payload.Float32))
	if err != nil {
		return 0, 0, 0, err
	}
	if st < 1 || st > int64(payload.BF16) || !payload.DType(st).Valid() {
		return 0, 0, 0, attrErr(n, "stash_type %d is not an element type", st)
	}
	return axis, eps, payload.DType(st), nil
}
