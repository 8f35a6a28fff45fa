package model

import "math"

func init() {
	RegisterOp(&Op{
		Type: "LinearAttention",
		Versions: []Version{
			{Since: 27, MinIn: 3, MaxIn: 7, MaxOut: 2},
		},
		InputNames: []string{"query", "key", "value", "past_state", "decay", "beta", "erase_gate"},
		Bind:       bindLinearAttention,
	})
}

func bindLinearAttention(n *Node, opset int64) (Rule, error) {
	a := &LinearAttentionAttrs{}
	var err error
	if a.QNumHeads, err = n.Int("q_num_heads", 0); err != nil {
		return nil, err
	}
	if a.KVNumHeads, err = n.Int("kv_num_heads", 0); err != nil {
		return nil, err
	}
	if a.KVNumHeads <= 0 || a.QNumHeads <= 0 || a.QNumHeads > math.MaxInt32 || a.QNumHeads%a.KVNumHeads != 0 {
		return nil, attrErr(n, "q_num_heads %d must be a positive multiple of kv_num_heads %d", a.QNumHeads, a.KVNumHeads)
	}
	if a.Scale, err = n.Float("scale", 0); err != nil {
		return nil, err
	}
	if _, err = n.Int("chunk_size", 0); err != nil {
		return nil, err
	}
	rule, err := n.String("update_rule", "gated_delta")
	if err != nil {
		return nil, err
	}
	switch rule {
	case "linear":
	case "gated":
		a.Gated = true
	case "delta":
		a.Delta = true
	case "gated_delta":
		a.Gated, a.Delta = true, true
	default:
		return nil, attrErr(n, "update_rule %q is not linear, gated, delta or gated_delta", rule)
	}
	has := func(i int) bool { return i < n.NumInputs() && n.Input(i) != "" }
	switch {
	case a.Gated != has(linDecay):
		return nil, attrErr(n, "update_rule %q and the decay input: decay is given exactly for the gated rules", rule)
	case a.Delta != has(linBeta):
		return nil, attrErr(n, "update_rule %q and the beta input: beta is given exactly for the delta rules", rule)
	case has(linErase) && !a.Delta:
		return nil, attrErr(n, "update_rule %q takes no erase_gate", rule)
	}
	return a, nil
}

// The inputs of LinearAttention, by position.
const (
	linQ, linK, linV, linPast, linDecay, linBeta, linErase = 0, 1, 2, 3, 4, 5, 6
)

// LinearAttentionAttrs are a LinearAttention node's attributes. The op
// runs a recurrent state S (batch, kv heads, dk, dv) over the tokens of
// query, key and value (batch, tokens, heads·head size): for each token,
// S is multiplied by exp(decay) when Gated; when Delta, the value
// becomes beta·(v - Sᵀ·k') with k' = erase_gate⊙k (or k); then S += k⊗v,
// and the output of query head h is Scale·Sᵀ·q read from key/value head
// h/(QNumHeads/KVNumHeads). past_state is the initial S (zeros when
// absent); present_state the final one. decay's last dim holds one value
// per kv head or per kv head and key dim; beta's one per kv head or one.
type LinearAttentionAttrs struct {
	QNumHeads, KVNumHeads int64
	// Scale multiplies the output; 0 means 1/sqrt(dk).
	Scale float32
	// Gated and Delta select the update rule: linear (neither), gated,
	// delta or gated_delta (both, the default).
	Gated, Delta bool
}

// linGeom is what the rule learns of the sizes; -1 where unknown.
type linGeom struct{ b, t, dk, dv int }

// Infer implements Rule.
func (a *LinearAttentionAttrs) Infer(c *InferCtx) error {
	hq, hkv := int(a.QNumHeads), int(a.KVNumHeads)
	g := linGeom{-1, -1, -1, -1}
	for i, h := range []int{hq, hkv, hkv} {
		d, ok := c.Dims(i)
		if !ok {
			continue
		}
		if len(d) != 3 {
			return c.Errorf("input %d has rank %d, want 3", i, len(d))
		}
		if !attnUnify(&g.b, d[0]) || !attnUnify(&g.t, d[1]) {
			return c.Errorf("input %d has shape %v; batch or tokens differ from the others", i, d)
		}
		w, ok := attnDiv(d[2], h)
		if !ok {
			return c.Errorf("input %d's last dim %d is not a multiple of its %d heads", i, d[2], h)
		}
		p := &g.dk
		if i == linV {
			p = &g.dv
		}
		if !attnUnify(p, w) {
			return c.Errorf("query and key head sizes differ")
		}
	}
	if d, ok := c.Dims(linPast); ok {
		if len(d) != 4 || dimsConflict(d[1], hkv) || !attnUnify(&g.b, d[0]) || !attnUnify(&g.dk, d[2]) || !attnUnify(&g.dv, d[3]) {
			return c.Errorf("past_state has shape %v, want [%d %d %d %d]", d, g.b, hkv, g.dk, g.dv)
		}
	}
	for _, i := range []int{linDecay, linBeta, linErase} {
		d, ok := c.Dims(i)
		if !ok {
			continue
		}
		if len(d) != 3 || dimsConflict(d[0], g.b) || dimsConflict(d[1], g.t) {
			return c.Errorf("input %d has shape %v, want [%d %d ...]", i, d, g.b, g.t)
		}
		w := d[2]
		if w < 0 {
			continue
		}
		var okw bool
		switch i {
		case linDecay:
			okw = w == hkv || g.dk < 0 || w == hkv*g.dk
		case linBeta:
			okw = w == hkv || w == 1
		case linErase:
			okw = g.dk < 0 || w == hkv*g.dk
		}
		if !okw {
			return c.Errorf("input %d has last dim %d, which fits no form", i, w)
		}
	}
	c.SetType(0, c.DType(linQ))
	s := c.OutDims(0, 3)
	s[0], s[1], s[2] = g.b, g.t, attnMul(hq, g.dv)
	if c.NumOut() > 1 {
		st := c.DType(linQ)
		if c.Has(linPast) {
			st = c.DType(linPast)
		}
		c.SetType(1, st)
		s := c.OutDims(1, 4)
		s[0], s[1], s[2], s[3] = g.b, hkv, g.dk, g.dv
	}
	return nil
}
