package model

import "math"

func init() {
	RegisterOp(&Op{
		Type: "RotaryEmbedding",
		Versions: []Version{
			{Since: 23, MinIn: 3, MaxIn: 4, MaxOut: 1},
		},
		InputNames: []string{"X", "cos_cache", "sin_cache", "position_ids"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &RotaryAttrs{}
			var err error
			if a.Interleaved, err = flagAttr(n, "interleaved", false); err != nil {
				return nil, err
			}
			if a.NumHeads, err = n.Int("num_heads", 0); err != nil {
				return nil, err
			}
			if a.RotaryDim, err = n.Int("rotary_embedding_dim", 0); err != nil {
				return nil, err
			}
			if a.NumHeads < 0 || a.NumHeads > math.MaxInt32 {
				return nil, attrErr(n, "num_heads %d out of range", a.NumHeads)
			}
			if a.RotaryDim < 0 || a.RotaryDim > math.MaxInt32 || a.RotaryDim%2 != 0 {
				return nil, attrErr(n, "rotary_embedding_dim %d is not a non-negative even number", a.RotaryDim)
			}
			return a, nil
		},
	})
}

// RotaryAttrs are a RotaryEmbedding node's attributes. X is 4-D,
// (batch, heads, sequence, head size), or 3-D, (batch, sequence,
// heads·head size) with NumHeads heads. The first RotaryDim values of
// each head vector are rotated in pairs by the angle whose cosine and
// sine are cos_cache and sin_cache at the token's position, and the
// rest pass through. The caches are (positions, RotaryDim/2) indexed by
// position_ids (batch, sequence), or (batch, sequence, RotaryDim/2)
// when position_ids is absent.
type RotaryAttrs struct {
	// Interleaved pairs values 2i and 2i+1; otherwise value i pairs with
	// value i+RotaryDim/2.
	Interleaved bool
	// NumHeads is the head count of a 3-D X; 0 when absent.
	NumHeads int64
	// RotaryDim is the number of values rotated per head; 0 means the
	// whole head.
	RotaryDim int64
}

// Infer implements Rule.
func (a *RotaryAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	x, ok := c.Dims(0)
	if !ok {
		return nil
	}
	b, s, d := -1, -1, -1
	switch len(x) {
	case 4:
		b, s, d = x[0], x[2], x[3]
	case 3:
		if a.NumHeads <= 0 {
			return c.Errorf("3-D input needs the num_heads attribute")
		}
		b, s = x[0], x[1]
		if x[2] >= 0 {
			if x[2]%int(a.NumHeads) != 0 {
				return c.Errorf("hidden size %d is not a multiple of num_heads %d", x[2], a.NumHeads)
			}
			d = x[2] / int(a.NumHeads)
		}
	default:
		return c.Errorf("input has rank %d, want 3 or 4", len(x))
	}
	r := int(a.RotaryDim)
	if r == 0 {
		r = d
	} else if d >= 0 && r > d {
		return c.Errorf("rotary_embedding_dim %d exceeds the head size %d", r, d)
	}
	if r >= 0 && r%2 != 0 {
		return c.Errorf("rotary dim %d is odd", r)
	}
	half := -1
	if r >= 0 {
		half = r / 2
	}
	pos := c.Has(3)
	for i := 1; i <= 2; i++ {
		cs, ok := c.Dims(i)
		if !ok {
			continue
		}
		if pos {
			if len(cs) != 2 || dimsConflict(cs[1], half) {
				return c.Errorf("input %d has shape %v, want [positions %d]", i, cs, half)
			}
		} else if len(cs) != 3 || dimsConflict(cs[0], b) || dimsConflict(cs[1], s) || dimsConflict(cs[2], half) {
			return c.Errorf("input %d has shape %v, want [%d %d %d]", i, cs, b, s, half)
		}
	}
	if p, ok := c.Dims(3); ok && (len(p) != 2 || dimsConflict(p[0], b) || dimsConflict(p[1], s)) {
		return c.Errorf("position_ids has shape %v, want [%d %d]", p, b, s)
	}
	return nil
}
