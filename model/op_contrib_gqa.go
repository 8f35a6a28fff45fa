package model

import "math"

func init() {
	RegisterOp(&Op{
		Domain: MSDomain,
		Type:   "GroupQueryAttention",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 12, MaxOut: 4, Values: []int{gqaTotal}},
		},
		InputNames: []string{"query", "key", "value", "past_key", "past_value", "seqlens_k", "total_sequence_length", "cos_cache", "sin_cache", "position_ids", "attention_bias", "head_sink"},
		Bind:       bindGQA,
	})
}

// The inputs of GroupQueryAttention, by position.
const (
	gqaQ, gqaK, gqaV, gqaPastK, gqaPastV, gqaSeqlens, gqaTotal, gqaCos, gqaSin, gqaPos, gqaBias, gqaSink = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
)

func bindGQA(n *Node, _ int64) (Rule, error) {
	a := &GQAAttrs{}
	if err := bindHeads(n, &a.NumHeads); err != nil {
		return nil, err
	}
	if !n.Has("kv_num_heads") {
		return nil, attrMissing(n, "kv_num_heads")
	}
	var err error
	if a.KVNumHeads, err = n.Int("kv_num_heads", 0); err != nil {
		return nil, err
	}
	if a.KVNumHeads <= 0 || a.NumHeads%a.KVNumHeads != 0 {
		return nil, attrErr(n, "num_heads %d is not a multiple of kv_num_heads %d", a.NumHeads, a.KVNumHeads)
	}
	if a.Scale, err = n.Float("scale", 0); err != nil {
		return nil, err
	}
	if a.Softcap, err = n.Float("softcap", 0); err != nil {
		return nil, err
	}
	if !(a.Softcap >= 0) {
		return nil, attrErr(n, "softcap %v is negative", a.Softcap)
	}
	if a.DoRotary, err = flagAttr(n, "do_rotary", false); err != nil {
		return nil, err
	}
	if a.RotaryInterleaved, err = flagAttr(n, "rotary_interleaved", false); err != nil {
		return nil, err
	}
	if a.SmoothSoftmax, err = flagAttr(n, "smooth_softmax", false); err != nil {
		return nil, err
	}
	if a.LocalWindow, err = n.Int("local_window_size", -1); err != nil {
		return nil, err
	}
	if a.LocalWindow > math.MaxInt32 {
		return nil, attrErr(n, "local_window_size %d out of range", a.LocalWindow)
	}
	if a.QKOutput, err = n.Int("qk_output", 0); err != nil {
		return nil, err
	}
	if n.Input(gqaSeqlens) == "" || n.Input(gqaTotal) == "" {
		return nil, attrErr(n, "seqlens_k and total_sequence_length are required")
	}
	if (n.Input(gqaK) == "") != (n.Input(gqaV) == "") {
		return nil, attrErr(n, "key and value must be given together, or neither (packed QKV)")
	}
	return a, nil
}

// GQAAttrs are the attributes of ONNX Runtime's GroupQueryAttention
// (com.microsoft): causal attention of NumHeads query heads over
// KVNumHeads key/value heads. query is (batch, sequence, NumHeads·head
// size), or packs query, key and value as (batch, sequence,
// (NumHeads+2·KVNumHeads)·head size) when key and value are absent; key
// and value are (batch, sequence, KVNumHeads·head size). past_key and
// past_value are (batch, KVNumHeads, past buffer, head size); item b's
// keys are its first seqlens_k[b]+1 - sequence past keys (none on the
// first prompt, when sequence equals total_sequence_length) followed by
// its new ones, which present_key and present_value (batch, KVNumHeads,
// max(total_sequence_length, past buffer), head size) hold, zero after.
// DoRotary rotates the new queries and keys by cos_cache and sin_cache
// (positions, rotary dim/2) at position_ids, or at their positions in
// the sequence.
type GQAAttrs struct {
	NumHeads, KVNumHeads int64
	// Scale multiplies Q·Kᵀ; 0 means 1/sqrt(head size).
	Scale float32
	// Softcap, when positive, maps each score s to Softcap·tanh(s/Softcap).
	Softcap float32
	// DoRotary and RotaryInterleaved apply rotary embeddings.
	DoRotary, RotaryInterleaved bool
	// SmoothSoftmax adds a zero logit to each softmax; lintel refuses it.
	SmoothSoftmax bool
	// LocalWindow, when positive, lets each query see only the last
	// LocalWindow keys up to its own, as ONNX Runtime 1.24 does; -1 for
	// no window.
	LocalWindow int64
	// QKOutput selects the output_qk output; lintel refuses it.
	QKOutput int64
}

// Infer implements Rule.
func (a *GQAAttrs) Infer(c *InferCtx) error {
	dt := c.DType(gqaQ)
	for j := range c.NumOut() {
		c.SetType(j, dt)
	}
	q, ok := c.Dims(gqaQ)
	if !ok {
		for j := range c.NumOut() {
			c.SetUnranked(j)
		}
		return nil
	}
	n, nkv := int(a.NumHeads), int(a.KVNumHeads)
	if len(q) != 3 {
		return c.Errorf("query has rank %d, want 3", len(q))
	}
	b, s, h := q[0], q[1], -1
	var okd bool
	if c.Has(gqaK) {
		if h, okd = attnDiv(q[2], n); !okd {
			return c.Errorf("query's hidden size %d is not a multiple of num_heads %d", q[2], n)
		}
		for _, i := range [2]int{gqaK, gqaV} {
			if d, ok := c.Dims(i); ok && (len(d) != 3 || dimsConflict(d[0], b) || dimsConflict(d[1], s) || dimsConflict(d[2], attnMul(nkv, h))) {
				return c.Errorf("input %d has shape %v, want [%d %d %d]", i, d, b, s, attnMul(nkv, h))
			}
		}
	} else if h, okd = attnDiv(q[2], n+2*nkv); !okd {
		return c.Errorf("packed query's hidden size %d is not a multiple of %d heads", q[2], n+2*nkv)
	}
	if c.Has(gqaPastK) != c.Has(gqaPastV) {
		return c.Errorf("past_key and past_value must be given together")
	}
	past := 0
	if c.Has(gqaPastK) {
		past = -1
		for _, i := range [2]int{gqaPastK, gqaPastV} {
			d, ok := c.Dims(i)
			if !ok {
				continue
			}
			if len(d) != 4 || dimsConflict(d[0], b) || dimsConflict(d[1], nkv) || !attnUnify(&past, d[2]) || dimsConflict(d[3], h) {
				return c.Errorf("input %d has shape %v, want [%d %d past %d]", i, d, b, nkv, h)
			}
		}
	}
	if d, ok := c.Dims(gqaSeqlens); ok && (len(d) != 1 || dimsConflict(d[0], b)) {
		return c.Errorf("seqlens_k has shape %v, want [%d]", d, b)
	}
	if d, ok := c.Dims(gqaTotal); ok && !(len(d) == 0 || len(d) == 1 && !dimsConflict(d[0], 1)) {
		return c.Errorf("total_sequence_length has shape %v, want a scalar", d)
	}
	pres := -1
	if v, ok := c.Ints(gqaTotal); ok && len(v) == 1 {
		if v[0] < 1 || v[0] > math.MaxInt32 {
			return c.Errorf("total_sequence_length %d out of range", v[0])
		}
		if past >= 0 && s >= 0 && int(v[0]) > past+s {
			// The keys are at most the past ones and the new ones; this
			// also bounds the present outputs by the inputs' sizes.
			return c.Errorf("total_sequence_length %d exceeds the %d past and %d new tokens", v[0], past, s)
		}
		if past >= 0 {
			pres = max(int(v[0]), past)
		}
	}
	if c.Has(gqaCos) != c.Has(gqaSin) || a.DoRotary && !c.Has(gqaCos) {
		return c.Errorf("do_rotary needs cos_cache and sin_cache, given together")
	}
	rows, half := -1, -1
	for _, i := range [2]int{gqaCos, gqaSin} {
		if d, ok := c.Dims(i); ok && (len(d) != 2 || h >= 0 && d[1] >= 0 && 2*d[1] > h || !attnUnify(&rows, d[0]) || !attnUnify(&half, d[1])) {
			return c.Errorf("input %d has shape %v, want [positions, at most %d], as the other cache", i, d, h/2)
		}
	}
	if d, ok := c.Dims(gqaPos); ok && (len(d) != 2 || dimsConflict(d[0], b) || dimsConflict(d[1], s)) {
		return c.Errorf("position_ids has shape %v, want [%d %d]", d, b, s)
	}
	y := c.OutDims(0, 3)
	y[0], y[1], y[2] = b, s, attnMul(n, h)
	for j := 1; j <= 2 && j < c.NumOut(); j++ {
		p := c.OutDims(j, 4)
		p[0], p[1], p[2], p[3] = b, nkv, pres, h
	}
	if c.NumOut() > 3 {
		p := c.OutDims(3, 4)
		p[0], p[1], p[2], p[3] = b, n, s, pres
	}
	return nil
}
