package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "MultiHeadAttention",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 10, MaxOut: 4}},
		InputNames: []string{"query", "key", "value", "bias", "key_padding_mask", "attention_bias", "past_key", "past_value", "past_sequence_length", "cache_indirection"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &MHAAttrs{}
			if err := bindHeads(n, &a.NumHeads); err != nil {
				return nil, err
			}
			var err error
			if a.MaskFilterValue, err = n.Float("mask_filter_value", -10000); err != nil {
				return nil, err
			}
			if a.Scale, err = n.Float("scale", 0); err != nil {
				return nil, err
			}
			if a.Unidirectional, err = flagAttr(n, "unidirectional", false); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// bindHeads reads the required num_heads attribute.
func bindHeads(n *Node, h *int64) error {
	if !n.Has("num_heads") {
		return attrMissing(n, "num_heads")
	}
	v, err := n.Int("num_heads", 0)
	if err != nil {
		return err
	}
	if v <= 0 || v > 1<<20 {
		return attrErr(n, "num_heads %d out of range", v)
	}
	*h = v
	return nil
}

// The inputs of MultiHeadAttention, by position.
const (
	mhaQ, mhaK, mhaV, mhaBias, mhaKeyMask, mhaAttnBias, mhaPastK, mhaPastV, mhaPastLen, mhaCacheIdx = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
)

// MHAAttrs are the attributes of ONNX Runtime's MultiHeadAttention
// (com.microsoft). query is (batch, sequence, hidden), or packed with
// key and value as (batch, sequence, heads, 3, head size) when key is
// absent. key and value are (batch, kv sequence, hidden) — key may pack
// both as (batch, kv sequence, heads, 2, head size), value then absent —
// or (batch, heads, kv sequence, head size). bias (3·hidden) is added
// to the projections; key_padding_mask (int32) masks keys where it is
// 0 by adding MaskFilterValue; attention_bias (batch or 1, heads or 1,
// sequence, total sequence) is added to the scores. past_key and
// past_value (batch, heads, past sequence, head size) come before the
// new keys and values; present_key and present_value hold them all.
type MHAAttrs struct {
	NumHeads int64
	// MaskFilterValue is what a masked key adds to its score.
	MaskFilterValue float32
	// Scale multiplies Q·Kᵀ; 0 means 1/sqrt(head size).
	Scale float32
	// Unidirectional masks the keys after each query's position.
	Unidirectional bool
}

// MHAGeom is one MultiHeadAttention call's sizes; -1 where unknown.
type MHAGeom struct {
	B, S, N, H, L, Hv, Past int
	// PackedQKV and PackedKV name the packed forms; KV4D is set for
	// key and value of shape (batch, heads, kv sequence, head size).
	PackedQKV, PackedKV, KV4D bool
}

// Geometry reads the sizes from the inputs' shapes.
func (a *MHAAttrs) Geometry(c *InferCtx) (MHAGeom, error) {
	n := int(a.NumHeads)
	g := MHAGeom{B: -1, S: -1, N: n, H: -1, L: -1, Hv: -1}
	q, ok := c.Dims(mhaQ)
	if !ok {
		return g, nil
	}
	unify := func(d *int, v int) bool { return attnUnify(d, v) }
	bad := func() (MHAGeom, error) {
		return g, c.Errorf("query %v, key %v and value %v do not fit num_heads %d", q, c.In(mhaK).Dims, c.In(mhaV).Dims, n)
	}
	switch {
	case !c.Has(mhaK):
		if len(q) != 5 || !unify(&g.N, q[2]) || q[3] != 3 && q[3] >= 0 {
			return bad()
		}
		g.PackedQKV = true
		g.B, g.S, g.L, g.H, g.Hv = q[0], q[1], q[1], q[4], q[4]
	default:
		if len(q) != 3 {
			return bad()
		}
		g.B, g.S = q[0], q[1]
		var okd bool
		if g.H, okd = attnDiv(q[2], n); !okd {
			return bad()
		}
		k, okk := c.Dims(mhaK)
		v, okv := c.Dims(mhaV)
		switch {
		case !okk:
		case len(k) == 5:
			if c.Has(mhaV) || !unify(&g.B, k[0]) || !unify(&g.N, k[2]) || (k[3] != 2 && k[3] >= 0) || !unify(&g.H, k[4]) {
				return bad()
			}
			g.PackedKV = true
			g.L, g.Hv = k[1], k[4]
		case len(k) == 4:
			g.KV4D = true
			if !unify(&g.B, k[0]) || !unify(&g.N, k[1]) || !unify(&g.H, k[3]) {
				return bad()
			}
			g.L = k[2]
			if okv && (len(v) != 4 || !unify(&g.B, v[0]) || !unify(&g.N, v[1]) || !unify(&g.L, v[2])) {
				return bad()
			}
			if okv {
				g.Hv = v[3]
			}
		case len(k) == 3:
			if !unify(&g.B, k[0]) {
				return bad()
			}
			g.L = k[1]
			kh, okd := attnDiv(k[2], n)
			if !okd || !unify(&g.H, kh) {
				return bad()
			}
			if okv {
				vh, okd := attnDiv(v[2], n)
				if len(v) != 3 || !okd || !unify(&g.B, v[0]) || !unify(&g.L, v[1]) {
					return bad()
				}
				g.Hv = vh
			}
		default:
			return bad()
		}
		if !g.PackedKV && !c.Has(mhaV) {
			return g, c.Errorf("value is missing")
		}
	}
	if c.Has(mhaPastK) != c.Has(mhaPastV) {
		return g, c.Errorf("past_key and past_value must be given together")
	}
	if c.Has(mhaPastK) {
		g.Past = -1
		pk, okk := c.Dims(mhaPastK)
		pv, okv := c.Dims(mhaPastV)
		if okk && (len(pk) != 4 || !unify(&g.B, pk[0]) || !unify(&g.N, pk[1]) || !unify(&g.Past, pk[2]) || !unify(&g.H, pk[3])) ||
			okv && (len(pv) != 4 || !unify(&g.B, pv[0]) || !unify(&g.N, pv[1]) || !unify(&g.Past, pv[2]) || !unify(&g.Hv, pv[3])) {
			return g, c.Errorf("past_key %v and past_value %v do not fit the query %v", pk, pv, q)
		}
	}
	return g, nil
}

// Total returns the total sequence: past plus new keys, -1 if unknown.
func (g MHAGeom) Total() int {
	if g.Past < 0 || g.L < 0 {
		return -1
	}
	return g.Past + g.L
}

// Infer implements Rule.
func (a *MHAAttrs) Infer(c *InferCtx) error {
	dt := c.DType(mhaQ)
	for j := range c.NumOut() {
		c.SetType(j, dt)
	}
	if _, ok := c.Dims(mhaQ); !ok {
		for j := range c.NumOut() {
			c.SetUnranked(j)
		}
		return nil
	}
	g, err := a.Geometry(c)
	if err != nil {
		return err
	}
	t := g.Total()
	if m, ok := c.Dims(mhaKeyMask); ok {
		fits := false
		switch len(m) {
		case 1:
			fits = !dimsConflict(m[0], g.B)
		case 2:
			fits = !dimsConflict(m[0], g.B) && !dimsConflict(m[1], t)
		}
		if !fits {
			return c.Errorf("key_padding_mask has shape %v; want [%d] or [%d %d]", m, g.B, g.B, t)
		}
	}
	if m, ok := c.Dims(mhaAttnBias); ok {
		if len(m) != 4 || (m[0] != 1 && dimsConflict(m[0], g.B)) || (m[1] != 1 && dimsConflict(m[1], g.N)) || dimsConflict(m[2], g.S) || dimsConflict(m[3], t) {
			return c.Errorf("attention_bias has shape %v; want [%d or 1, %d or 1, %d, %d]", m, g.B, g.N, g.S, t)
		}
	}
	if b, ok := c.Dims(mhaBias); ok {
		w := -1
		if g.H >= 0 && g.Hv >= 0 {
			w = g.N * (2*g.H + g.Hv)
		}
		if len(b) != 1 || dimsConflict(b[0], w) {
			return c.Errorf("bias has shape %v, want [%d]", b, w)
		}
	}
	s := c.OutDims(0, 3)
	s[0], s[1], s[2] = g.B, g.S, attnMul(g.N, g.Hv)
	if c.NumOut() > 1 {
		s := c.OutDims(1, 4)
		s[0], s[1], s[2], s[3] = g.B, g.N, t, g.H
	}
	if c.NumOut() > 2 {
		s := c.OutDims(2, 4)
		s[0], s[1], s[2], s[3] = g.B, g.N, t, g.Hv
	}
	if c.NumOut() > 3 {
		s := c.OutDims(3, 4)
		s[0], s[1], s[2], s[3] = g.B, g.N, g.S, t
		c.SetType(3, payload.Float32)
	}
	return nil
}
