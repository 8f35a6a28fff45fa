package model

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type: "Attention",
		Versions: []Version{
			{Since: 23, MinIn: 3, MaxIn: 6, MaxOut: 4},
			{Since: 24, MinIn: 3, MaxIn: 7, MaxOut: 4},
		},
		InputNames: []string{"Q", "K", "V", "attn_mask", "past_key", "past_value", "nonpad_kv_seqlen"},
		Bind:       bindAttention,
	})
}

// The inputs and outputs of Attention, by position.
const (
	attnQ, attnK, attnV, attnMask, attnPastK, attnPastV, attnNonpad = 0, 1, 2, 3, 4, 5, 6
	attnY, attnPresentK, attnPresentV, attnQK                       = 0, 1, 2, 3
)

func bindAttention(n *Node, opset int64) (Rule, error) {
	a := &AttentionAttrs{}
	var err error
	if a.IsCausal, err = flagAttr(n, "is_causal", false); err != nil {
		return nil, err
	}
	if a.QNumHeads, err = n.Int("q_num_heads", 0); err != nil {
		return nil, err
	}
	if a.KVNumHeads, err = n.Int("kv_num_heads", 0); err != nil {
		return nil, err
	}
	if a.QNumHeads < 0 || a.KVNumHeads < 0 || a.QNumHeads > math.MaxInt32 || a.KVNumHeads > math.MaxInt32 {
		return nil, attrErr(n, "q_num_heads %d and kv_num_heads %d must be positive", a.QNumHeads, a.KVNumHeads)
	}
	if a.Mode, err = n.Int("qk_matmul_output_mode", 0); err != nil {
		return nil, err
	}
	if a.Mode < 0 || a.Mode > 3 {
		return nil, attrErr(n, "qk_matmul_output_mode %d is not 0, 1, 2 or 3", a.Mode)
	}
	if n.Has("scale") {
		if a.Scale, err = n.Float("scale", 0); err != nil {
			return nil, err
		}
		a.HasScale = true
	}
	if a.Softcap, err = n.Float("softcap", 0); err != nil {
		return nil, err
	}
	if a.Softcap < 0 || a.Softcap != a.Softcap {
		return nil, attrErr(n, "softcap %v is negative", a.Softcap)
	}
	if n.Has("softmax_precision") {
		p, err := n.Int("softmax_precision", 0)
		if err != nil {
			return nil, err
		}
		if p < 1 || p > int64(payload.BF16) || !payload.DType(p).Valid() {
			return nil, attrErr(n, "softmax_precision %d is not an element type", p)
		}
		a.SoftmaxPrecision = payload.DType(p)
	}
	return a, nil
}

// AttentionAttrs are an Attention node's attributes. The op computes
// softmax(softcap(scale·Q·Kᵀ) + bias)·V per batch item and query head.
// Q, K and V are 4-D, (batch, heads, sequence, head size), or 3-D,
// (batch, sequence, heads·head size) with the head counts given by
// QNumHeads and KVNumHeads. Query heads outnumber key and value heads
// by a whole factor (grouped-query attention): query head h reads
// key/value head h/(QNumHeads/KVNumHeads).
//
// The keys and values are past_key and past_value (4-D) followed by K
// and V along the sequence; they are the present_key and present_value
// outputs. The bias adds attn_mask (a bool mask gives 0 where true and
// -inf where false; it broadcasts to (batch, query heads, query
// sequence, total sequence), and a last dim shorter than the total
// sequence is padded with -inf), a causal mask when IsCausal, and from
// opset 24 a padding mask that keeps the first nonpad_kv_seqlen[b] keys
// of batch item b. A query row with every key masked gives zeros.
//
// The optional fourth output holds the scores at the stage Mode names.
type AttentionAttrs struct {
	// IsCausal lets query i attend key j only when j <= i + offset,
	// where offset is past_key's sequence length, else
	// nonpad_kv_seqlen[b] minus the query sequence length when that
	// input is given, else 0.
	IsCausal bool
	// QNumHeads and KVNumHeads are the head counts of 3-D inputs; 0 when
	// absent.
	QNumHeads, KVNumHeads int64
	// Mode selects qk_matmul_output: 0 the scaled Q·Kᵀ, 1 after the
	// softcap, 2 after the bias is added, 3 after the softmax. (ONNX's
	// reference caps before it masks, so that -inf stays -inf; the
	// suite's data follow it, and modes 1 and 2 name those stages.)
	Mode int64
	// Scale multiplies Q·Kᵀ when HasScale; 1/sqrt(head size) otherwise.
	Scale    float32
	HasScale bool
	// Softcap, when positive, maps each score s to Softcap·tanh(s/Softcap).
	Softcap float32
	// SoftmaxPrecision is the element type the softmax computes in;
	// Undefined when absent. Backends may compute in a wider type.
	SoftmaxPrecision payload.DType
	// MaskExact is set on the node FuseAttention writes (of EwDomain):
	// attn_mask's last dim must then be the total sequence or 1 (one
	// value added to every key), as the Add it replaces required, instead
	// of being padded with -inf.
	MaskExact bool
}

// attnGeom is what the rule learns of an Attention node's sizes; -1
// where unknown.
type attnGeom struct {
	b, hq, hkv, sq, skv, d, dv, past, total int
}

// attnUnify merges two sizes of one dim into *d, reporting a conflict.
func attnUnify(d *int, v int) bool {
	if v < 0 {
		return true
	}
	if *d < 0 {
		*d = v
		return true
	}
	return *d == v
}

// attnDiv returns n/h, -1 when either is unknown; ok is false when h
// does not divide n.
func attnDiv(n, h int) (int, bool) {
	if n < 0 || h <= 0 {
		return -1, true
	}
	if n%h != 0 {
		return 0, false
	}
	return n / h, true
}

// attnMul returns a*b, -1 when either is unknown (and neither is 0).
func attnMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a < 0 || b < 0 {
		return -1
	}
	return a * b
}

// Infer implements Rule.
func (a *AttentionAttrs) Infer(c *InferCtx) error {
	dt := c.DType(attnQ)
	for j := range c.NumOut() {
		c.SetType(j, dt)
	}
	r := -1
	for i := attnQ; i <= attnV; i++ {
		if k := c.Rank(i); k >= 0 {
			if k != 3 && k != 4 {
				return c.Errorf("input %d has rank %d, want 3 or 4", i, k)
			}
			if r >= 0 && k != r {
				return c.Errorf("Q, K and V have ranks %d, %d and %d; want them equal", c.Rank(attnQ), c.Rank(attnK), c.Rank(attnV))
			}
			r = k
		}
	}
	if c.Has(attnPastK) != c.Has(attnPastV) {
		return c.Errorf("past_key and past_value must be given together")
	}
	if r < 0 {
		for j := range c.NumOut() {
			c.SetUnranked(j)
		}
		return nil
	}
	g, err := a.geometry(c, r)
	if err != nil {
		return err
	}
	if err := a.checkMask(c, g); err != nil {
		return err
	}
	if c.Has(attnNonpad) {
		if d, ok := c.Dims(attnNonpad); ok && (len(d) != 1 || !attnUnify(&g.b, d[0])) {
			return c.Errorf("nonpad_kv_seqlen has shape %v, want [%d]", d, g.b)
		}
	}
	if r == 4 {
		s := c.OutDims(attnY, 4)
		s[0], s[1], s[2], s[3] = g.b, g.hq, g.sq, g.dv
	} else {
		s := c.OutDims(attnY, 3)
		s[0], s[1], s[2] = g.b, g.sq, attnMul(g.hq, g.dv)
	}
	if c.NumOut() > attnPresentK {
		s := c.OutDims(attnPresentK, 4)
		s[0], s[1], s[2], s[3] = g.b, g.hkv, g.total, g.d
	}
	if c.NumOut() > attnPresentV {
		s := c.OutDims(attnPresentV, 4)
		s[0], s[1], s[2], s[3] = g.b, g.hkv, g.total, g.dv
	}
	if c.NumOut() > attnQK {
		s := c.OutDims(attnQK, 4)
		s[0], s[1], s[2], s[3] = g.b, g.hq, g.sq, g.total
	}
	return nil
}

// geometry reads the sizes from Q, K, V and the past inputs, of rank r.
func (a *AttentionAttrs) geometry(c *InferCtx, r int) (attnGeom, error) {
	g := attnGeom{b: -1, hq: -1, hkv: -1, sq: -1, skv: -1, d: -1, dv: -1, past: 0, total: -1}
	q, _ := c.Dims(attnQ)
	k, _ := c.Dims(attnK)
	v, _ := c.Dims(attnV)
	ok := true
	kd := -1
	if r == 3 {
		if a.QNumHeads <= 0 || a.KVNumHeads <= 0 {
			return g, c.Errorf("3-D inputs need the q_num_heads and kv_num_heads attributes")
		}
		g.hq, g.hkv = int(a.QNumHeads), int(a.KVNumHeads)
		var dk, dq, dv int
		var okd bool
		if q != nil {
			ok = ok && attnUnify(&g.b, q[0]) && attnUnify(&g.sq, q[1])
			if dq, okd = attnDiv(q[2], g.hq); !okd {
				return g, c.Errorf("Q's hidden size %d is not a multiple of q_num_heads %d", q[2], g.hq)
			}
			g.d = dq
		}
		if k != nil {
			ok = ok && attnUnify(&g.b, k[0]) && attnUnify(&g.skv, k[1])
			if dk, okd = attnDiv(k[2], g.hkv); !okd {
				return g, c.Errorf("K's hidden size %d is not a multiple of kv_num_heads %d", k[2], g.hkv)
			}
			kd = dk
		}
		if v != nil {
			ok = ok && attnUnify(&g.b, v[0]) && attnUnify(&g.skv, v[1])
			if dv, okd = attnDiv(v[2], g.hkv); !okd {
				return g, c.Errorf("V's hidden size %d is not a multiple of kv_num_heads %d", v[2], g.hkv)
			}
			g.dv = dv
		}
	} else {
		if q != nil {
			ok = ok && attnUnify(&g.b, q[0]) && attnUnify(&g.hq, q[1]) && attnUnify(&g.sq, q[2]) && attnUnify(&g.d, q[3])
		}
		if k != nil {
			ok = ok && attnUnify(&g.b, k[0]) && attnUnify(&g.hkv, k[1]) && attnUnify(&g.skv, k[2])
			kd = k[3]
		}
		if v != nil {
			ok = ok && attnUnify(&g.b, v[0]) && attnUnify(&g.hkv, v[1]) && attnUnify(&g.skv, v[2]) && attnUnify(&g.dv, v[3])
		}
	}
	if !ok || !attnUnify(&g.d, kd) {
		return g, c.Errorf("Q %v, K %v and V %v do not agree on batch, heads, sequence or head size", q, k, v)
	}
	if g.hkv == 0 || (g.hq >= 0 && g.hkv > 0 && g.hq%g.hkv != 0) {
		return g, c.Errorf("%d query heads are not a multiple of %d key/value heads", g.hq, g.hkv)
	}
	if c.Has(attnPastK) {
		g.past = -1
		pk, okk := c.Dims(attnPastK)
		pv, okv := c.Dims(attnPastV)
		if (okk && len(pk) != 4) || (okv && len(pv) != 4) {
			return g, c.Errorf("past_key %v and past_value %v must be 4-D", pk, pv)
		}
		ok := true
		if okk {
			ok = attnUnify(&g.b, pk[0]) && attnUnify(&g.hkv, pk[1]) && attnUnify(&g.past, pk[2]) && attnUnify(&g.d, pk[3])
		}
		if okv {
			ok = ok && attnUnify(&g.b, pv[0]) && attnUnify(&g.hkv, pv[1]) && attnUnify(&g.past, pv[2]) && attnUnify(&g.dv, pv[3])
		}
		if !ok {
			return g, c.Errorf("past_key %v and past_value %v do not match K %v and V %v", pk, pv, k, v)
		}
	}
	if g.past >= 0 && g.skv >= 0 {
		g.total = g.past + g.skv
	}
	return g, nil
}

// checkMask refuses an attn_mask that does not broadcast to (batch,
// query heads, query sequence, total sequence) or is longer than the
// total sequence.
func (a *AttentionAttrs) checkMask(c *InferCtx, g attnGeom) error {
	m, ok := c.Dims(attnMask)
	if !ok {
		return nil
	}
	if len(m) < 1 || len(m) > 4 {
		return c.Errorf("attn_mask has rank %d, want 1 to 4", len(m))
	}
	want := [4]int{g.b, g.hq, g.sq, g.total}
	for i, d := range m {
		w := want[4-len(m)+i]
		if i == len(m)-1 {
			if d >= 0 && w >= 0 && d > w {
				return c.Errorf("attn_mask %v is longer than the %d keys", m, w)
			}
			if a.MaskExact && d >= 0 && w >= 0 && d != w && d != 1 {
				return c.Errorf("attn_mask %v does not cover the %d keys", m, w)
			}
			continue
		}
		if d != 1 && dimsConflict(d, w) {
			return c.Errorf("attn_mask %v does not broadcast to %v", m, want)
		}
	}
	return nil
}
