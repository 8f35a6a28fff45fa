package model

import "math"

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "RotaryEmbedding",
		Versions:   []Version{{Since: 1, MinIn: 4, MaxIn: 4, MaxOut: 1}},
		InputNames: []string{"input", "position_ids", "cos_cache", "sin_cache"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &MSRotaryAttrs{}
			var err error
			if a.Interleaved, err = flagAttr(n, "interleaved", false); err != nil {
				return nil, err
			}
			if a.PackedBatching, err = flagAttr(n, "is_packed_batching", false); err != nil {
				return nil, err
			}
			if a.NumHeads, err = n.Int("num_heads", 0); err != nil {
				return nil, err
			}
			if a.RotaryDim, err = n.Int("rotary_embedding_dim", 0); err != nil {
				return nil, err
			}
			if a.Scale, err = n.Float("scale", 1); err != nil {
				return nil, err
			}
			if a.NumHeads < 0 || a.NumHeads > math.MaxInt32 {
				return nil, attrErr(n, "num_heads %d out of range", a.NumHeads)
			}
			if a.RotaryDim < 0 || a.RotaryDim > math.MaxInt32 || a.RotaryDim%2 != 0 {
				return nil, attrErr(n, "rotary_embedding_dim %d is not a non-negative even number", a.RotaryDim)
			}
			if a.RotaryDim > 0 && a.NumHeads == 0 {
				return nil, attrErr(n, "rotary_embedding_dim needs num_heads")
			}
			return a, nil
		},
	})
}

// MSRotaryAttrs are the attributes of ONNX Runtime's RotaryEmbedding
// (com.microsoft). input is (batch, sequence, hidden) or (batch, heads,
// sequence, head size); with 3-D input the head size is hidden/NumHeads,
// or twice cos_cache's width when NumHeads is 0. The first RotaryDim
// values of each head vector (the whole head when 0) are rotated in
// pairs by the angle of the token's position: cos_cache and sin_cache
// are (positions, RotaryDim/2), and position_ids is (batch, sequence),
// or (1) holding the position of every batch item's first token.
type MSRotaryAttrs struct {
	// Interleaved pairs values 2i and 2i+1; otherwise value i pairs with
	// value i+RotaryDim/2.
	Interleaved bool
	// PackedBatching is is_packed_batching; lintel refuses it.
	PackedBatching bool
	// NumHeads is the head count of a 3-D input; 0 when absent.
	NumHeads int64
	// RotaryDim is the number of values rotated per head; 0: the head.
	RotaryDim int64
	// Scale is the scale attribute, which ONNX Runtime's CPU kernel
	// ignores; so does lintel.
	Scale float32
}

// Geometry returns the head count and head size of an input of dims x
// with caches of width half, and the number of rotated pairs; ok is
// false when they do not fit together. Unknown dims give -1.
func (a *MSRotaryAttrs) Geometry(x []int, half int) (heads, size, pairs int, ok bool) {
	heads, size = -1, -1
	switch len(x) {
	case 4:
		heads, size = x[1], x[3]
	case 3:
		switch {
		case a.NumHeads > 0:
			heads = int(a.NumHeads)
			if x[2] >= 0 {
				if x[2]%heads != 0 {
					return 0, 0, 0, false
				}
				size = x[2] / heads
			}
		case half > 0:
			size = 2 * half
			if x[2] >= 0 {
				if x[2]%size != 0 {
					return 0, 0, 0, false
				}
				heads = x[2] / size
			}
		}
	default:
		return 0, 0, 0, false
	}
	pairs = -1
	if a.RotaryDim > 0 {
		pairs = int(a.RotaryDim) / 2
		if size >= 0 && int(a.RotaryDim) > size {
			return 0, 0, 0, false
		}
	} else if size >= 0 {
		if size%2 != 0 {
			return 0, 0, 0, false
		}
		pairs = size / 2
	}
	return heads, size, pairs, !dimsConflict(pairs, half)
}

// Infer implements Rule.
func (a *MSRotaryAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	half, rows := -1, -1
	for i := 2; i <= 3; i++ {
		if d, ok := c.Dims(i); ok {
			if len(d) != 2 || !attnUnify(&half, d[1]) || !attnUnify(&rows, d[0]) {
				return c.Errorf("cos_cache and sin_cache have shapes %v and %v, want the same 2-D shape", c.In(2).Dims, c.In(3).Dims)
			}
		}
	}
	x, ok := c.Dims(0)
	if !ok {
		return nil
	}
	if _, _, _, ok := a.Geometry(x, half); !ok {
		return c.Errorf("input %v does not fit num_heads %d, rotary_embedding_dim %d and caches %d wide", x, a.NumHeads, a.RotaryDim, half)
	}
	if p, ok := c.Dims(1); ok {
		b, s := x[0], x[1]
		if len(x) == 4 {
			s = x[2]
		}
		if !(len(p) == 1 && !dimsConflict(p[0], 1)) && (len(p) != 2 || dimsConflict(p[0], b) || dimsConflict(p[1], s)) {
			return c.Errorf("position_ids has shape %v, want [%d %d] or [1]", p, b, s)
		}
	}
	return nil
}
