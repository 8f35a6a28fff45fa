package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "GroupNormalization",
		Versions: []Version{
			{Since: 18, MinIn: 3, MaxIn: 3, MaxOut: 1},
		},
		InputNames: []string{"X", "scale", "bias"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &GroupNormAttrs{PerChannel: opset >= 21, StashType: payload.Float32}
			if !n.Has("num_groups") {
				return nil, attrMissing(n, "num_groups")
			}
			var err error
			if a.NumGroups, err = n.Int("num_groups", 0); err != nil {
				return nil, err
			}
			if a.NumGroups <= 0 {
				return nil, attrErr(n, "num_groups must be positive, got %d", a.NumGroups)
			}
			if a.Epsilon, err = n.Float("epsilon", 1e-5); err != nil {
				return nil, err
			}
			if a.PerChannel {
				st, err := n.Int("stash_type", int64(payload.Float32))
				if err != nil {
					return nil, err
				}
				if st < 1 || st > int64(payload.BF16) || !payload.DType(st).Valid() {
					return nil, attrErr(n, "stash_type %d is not an element type", st)
				}
				a.StashType = payload.DType(st)
			}
			return a, nil
		},
	})
}

// GroupNormAttrs are a GroupNormalization node's attributes. X is
// N×C×D1×…; its C channels are split into NumGroups groups of
// consecutive channels, and each group of each item is normalised to
// zero mean and unit variance, then scaled and shifted. From opset 21
// scale and bias hold one value per channel; at opset 18 one per group.
type GroupNormAttrs struct {
	NumGroups int64
	// Epsilon is added to the variance.
	Epsilon float32
	// PerChannel is set from opset 21: scale and bias have C values,
	// not NumGroups.
	PerChannel bool
	// StashType is the element type the statistics are computed in
	// (opset 21's stash_type; float32 before).
	StashType payload.DType
}

// Infer implements Rule.
func (a *GroupNormAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	x, ok := c.Dims(0)
	if !ok {
		return nil
	}
	if len(x) < 2 {
		return c.Errorf("input %v must have rank 2 or more (N×C×D1×…)", x)
	}
	ch := x[1]
	if ch >= 0 && int64(ch)%a.NumGroups != 0 {
		return c.Errorf("%d channels do not split into %d groups", ch, a.NumGroups)
	}
	want := int(a.NumGroups)
	if a.PerChannel {
		want = ch
	}
	for i := 1; i < 3; i++ {
		if p, ok := c.Dims(i); ok && (len(p) != 1 || dimsConflict(p[0], want)) {
			return c.Errorf("input %d has shape %v, want [%d] for input %v and %d groups", i, p, want, x, a.NumGroups)
		}
	}
	return nil
}
