package model

import "math"

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "Attention",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 7, MaxOut: 2}},
		InputNames: []string{"input", "weights", "bias", "mask_index", "past", "attention_bias", "past_sequence_length"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &MSAttentionAttrs{}
			if err := bindHeads(n, &a.NumHeads); err != nil {
				return nil, err
			}
			var err error
			if a.QKVHiddenSizes, err = n.Ints("qkv_hidden_sizes", nil); err != nil {
				return nil, err
			}
			if a.QKVHiddenSizes != nil {
				q := a.QKVHiddenSizes
				if len(q) != 3 || q[0] != q[1] {
					return nil, attrErr(n, "qkv_hidden_sizes %v: want 3 sizes, the first two equal", q)
				}
				for _, v := range q {
					if v <= 0 || v > math.MaxInt32 || v%a.NumHeads != 0 {
						return nil, attrErr(n, "qkv_hidden_sizes %v: each must be a positive multiple of num_heads %d", q, a.NumHeads)
					}
				}
			}
			if a.Unidirectional, err = flagAttr(n, "unidirectional", false); err != nil {
				return nil, err
			}
			if a.MaskFilterValue, err = n.Float("mask_filter_value", -10000); err != nil {
				return nil, err
			}
			if a.Scale, err = n.Float("scale", 0); err != nil {
				return nil, err
			}
			if a.DoRotary, err = flagAttr(n, "do_rotary", false); err != nil {
				return nil, err
			}
			if a.SharePastPresent, err = flagAttr(n, "past_present_share_buffer", false); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// MSAttentionAttrs are the attributes of ONNX Runtime's Attention
// (com.microsoft): multi-head self-attention with the projections
// fused. input (batch, sequence, input hidden) times weights (input
// hidden, q+k+v hidden) plus bias gives Q, K and V side by side, of
// QKVHiddenSizes (three equal thirds when absent). mask_index (int32)
// masks keys by adding MaskFilterValue: (batch) key counts, (2·batch)
// ends then starts, (batch, total sequence) or (batch, sequence, total
// sequence) with 0 for a masked key; attention_bias (batch or 1, heads
// or 1, sequence, total sequence) is added to the scores. past (2,
// batch, heads, past sequence, head size) holds the past keys and
// values before the new ones; present holds them all.
type MSAttentionAttrs struct {
	NumHeads       int64
	QKVHiddenSizes []int64
	Unidirectional bool
	// MaskFilterValue is what a masked key adds to its score.
	MaskFilterValue float32
	// Scale multiplies Q·Kᵀ; 0 means 1/sqrt(head size).
	Scale float32
	// DoRotary and SharePastPresent are refused by lintel.
	DoRotary, SharePastPresent bool
}

// Sizes returns the hidden sizes of Q, K and V for weights of w
// columns (-1 when unknown).
func (a *MSAttentionAttrs) Sizes(w int) (q, k, v int) {
	if a.QKVHiddenSizes != nil {
		return int(a.QKVHiddenSizes[0]), int(a.QKVHiddenSizes[1]), int(a.QKVHiddenSizes[2])
	}
	if w < 0 {
		return -1, -1, -1
	}
	return w / 3, w / 3, w / 3
}

// Infer implements Rule.
func (a *MSAttentionAttrs) Infer(c *InferCtx) error {
	dt := c.DType(0)
	c.SetType(0, dt)
	if c.NumOut() > 1 {
		c.SetType(1, dt)
	}
	x, ok := c.Dims(0)
	if !ok {
		for j := range c.NumOut() {
			c.SetUnranked(j)
		}
		return nil
	}
	if len(x) != 3 {
		return c.Errorf("input has rank %d, want 3", len(x))
	}
	b, s := x[0], x[1]
	n := int(a.NumHeads)
	w := -1
	if d, ok := c.Dims(1); ok {
		if len(d) != 2 || dimsConflict(d[0], x[2]) {
			return c.Errorf("weights have shape %v, want [%d, q+k+v hidden]", d, x[2])
		}
		w = d[1]
	}
	dq, dk, dv := a.Sizes(w)
	if w >= 0 && (dq+dk+dv != w || a.QKVHiddenSizes == nil && (w%3 != 0 || dq%n != 0)) {
		return c.Errorf("weights have %d columns, which qkv_hidden_sizes %v and num_heads %d do not split", w, a.QKVHiddenSizes, n)
	}
	if d, ok := c.Dims(2); ok && (len(d) != 1 || dimsConflict(d[0], w)) {
		return c.Errorf("bias has shape %v, want [%d]", d, w)
	}
	h := -1
	if dk >= 0 {
		h = dk / n
	}
	past := 0
	if c.Has(4) {
		past = -1
		if dk >= 0 && dk != dv {
			return c.Errorf("past needs equal key and value hidden sizes, not %d and %d", dk, dv)
		}
		if d, ok := c.Dims(4); ok {
			if len(d) != 5 || dimsConflict(d[0], 2) || dimsConflict(d[1], b) || dimsConflict(d[2], n) || dimsConflict(d[4], h) {
				return c.Errorf("past has shape %v, want [2 %d %d past %d]", d, b, n, h)
			}
			past = d[3]
		}
	}
	t := -1
	if past >= 0 && s >= 0 {
		t = past + s
	}
	if m, ok := c.Dims(3); ok {
		fits := true
		switch len(m) {
		case 1:
			fits = b < 0 || m[0] < 0 || m[0] == b || m[0] == 2*b
		case 2:
			fits = !dimsConflict(m[0], b) && !dimsConflict(m[1], t)
		case 3:
			fits = !dimsConflict(m[0], b) && !dimsConflict(m[1], s) && !dimsConflict(m[2], t)
		}
		if !fits {
			return c.Errorf("mask_index has shape %v; want [%d], [%d], [%d %d] or [%d %d %d]", m, b, 2*b, b, t, b, s, t)
		}
	}
	if m, ok := c.Dims(5); ok {
		if len(m) != 4 || (m[0] != 1 && dimsConflict(m[0], b)) || (m[1] != 1 && dimsConflict(m[1], n)) || dimsConflict(m[2], s) || dimsConflict(m[3], t) {
			return c.Errorf("attention_bias has shape %v; want [%d or 1, %d or 1, %d, %d]", m, b, n, s, t)
		}
	}
	y := c.OutDims(0, 3)
	y[0], y[1], y[2] = b, s, dv
	if c.NumOut() > 1 {
		p := c.OutDims(1, 5)
		p[0], p[1], p[2], p[3], p[4] = 2, b, n, t, h
	}
	return nil
}
