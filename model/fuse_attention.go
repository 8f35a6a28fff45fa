package model

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// FuseAttention replaces the float32 attention that exporters spell out
// from basic ops, S = MatMul(Q, Kᵀ) → an optional Mul or Div of S by a
// constant scalar c → an optional Add of a float32 mask M → Softmax over
// the last axis → MatMul(·, V), with one Attention node of EwDomain,
// which binds as opset 23's, of inputs Q, K, V and M and scale c, 1/c or
// 1. Q and Kᵀ may each be a Mul by a constant scalar read by the chain
// only, as PyTorch's export of scaled_dot_product_attention writes them
// (by √scale each): the scale takes their product. The node is EwDomain's at every opset, for one difference from
// ONNX's op: its rule (AttentionAttrs.MaskExact) refuses a mask whose
// last dim is not the number of keys, where ONNX's Attention pads it
// with -inf and the Add it replaces fails (a last dim of 1 broadcasts
// over the keys, as the Add did). Q is [B, H, Sq, d] and V [B, H, T, dv],
// both of known rank 4. Kᵀ must be a Transpose read by the MatMul only:
// of K [B, H, T, d] by perm (0, 1, 3, 2), when K feeds the Attention
// node and the Transpose goes, or of K4 [B, T, H, d] by perm (0, 2, 3,
// 1), when the Transpose's perm becomes (0, 2, 1, 3) to give K. M must
// broadcast to the scores' shape without widening them, its last dim T,
// 1 or unknown (the rule checks it at run time). K and V may each be
// repeated from fewer key/value heads by the Unsqueeze, Expand and
// Reshape that exporters write for grouped heads (headRepeat); the node
// then reads the unrepeated K and V, as Attention pairs the heads. When
// K and V are a cache grown by Concat(past, new) on axis 2, read by the
// chain only (and as graph outputs), the Concats fold into the node as
// its past inputs and present outputs (attnPast). Every value in the
// chain is used once and is no graph output. Run it right after
// Optimize, before FuseNorms and FuseActivations take the MatMuls. g must
// be sorted, and typed by InferTypes.
//
// One difference remains: a row whose every score is -inf (M all -inf
// there) gives NaN from Softmax but zeros from Attention. A constant M
// with such a row is not fused; a mask computed at run time is, as ONNX
// Runtime's optimizer does.
func FuseAttention(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	f := newFuser(g)
	producer := map[string]*Node{}
	for _, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		for _, o := range n.Outputs {
			if o != "" {
				producer[o] = n
			}
		}
	}
	replace := map[*Node]*Node{}
	for _, n := range g.Nodes {
		if f.removed[n] || n.OpType != "MatMul" || !isDefaultDomain(n.Domain) || n.Fused != nil {
			continue
		}
		nodes, att := f.attention(n, producer)
		if att == nil {
			continue
		}
		last := nodes[len(nodes)-1]
		for _, c := range nodes {
			f.removed[c] = true
			if c != last {
				delete(g.Values, c.Outputs[0])
			}
		}
		for _, c := range f.attnPast(att, nodes, producer) {
			// Its output stays: the node writes it.
			f.removed[c] = true
		}
		replace[last] = att
	}
	if len(replace) == 0 {
		return nil
	}
	f.rebuild(replace)
	return nil
}

// attnPast folds the Concats that grow a key/value cache into att, the
// Attention node that replaces nodes: when att's K and V are each
// Concat(past, new) along axis 2 of rank-4 float32 values, read by nodes
// of the chain (and as graph outputs) only, att reads new as K or V and
// past as past_key or past_value, and writes the Concats' outputs as its
// present_key and present_value, as opset 23's Attention concatenates
// them. One node then appends the new keys and values, in place where
// the cache is carried (compute.Options.MaxSequence). It returns the two
// Concats, or nil, changing nothing, when they do not match.
func (f *fuser) attnPast(att *Node, nodes []*Node, producer map[string]*Node) []*Node {
	if len(att.Inputs) < 3 || len(att.Outputs) != 1 {
		return nil
	}
	chain := map[*Node]bool{}
	for _, c := range nodes {
		chain[c] = true
	}
	var cats [2]*Node
	for i, v := range att.Inputs[1:3] {
		c := producer[v]
		if c == nil || c.OpType != "Concat" || !isDefaultDomain(c.Domain) || f.removed[c] || c.Fused != nil ||
			len(c.Inputs) != 2 || len(c.Outputs) != 1 || c.Inputs[0] == "" || c.Inputs[1] == "" || c.Inputs[0] == c.Inputs[1] {
			return nil
		}
		if ax, err := c.Int("axis", 0); err != nil || (ax != 2 && ax != -2) {
			return nil
		}
		for _, x := range c.Inputs {
			if _, ok := f.rank4(x); !ok {
				return nil
			}
		}
		outs := 0
		for _, o := range f.g.Outputs {
			if o.Name == v {
				outs++
			}
		}
		for _, u := range f.users[v] {
			if u == nil {
				outs--
			} else if !chain[u] {
				return nil
			}
		}
		if outs != 0 {
			// A subgraph reads it.
			return nil
		}
		cats[i] = c
	}
	if cats[0] == cats[1] {
		return nil
	}
	mask := ""
	if len(att.Inputs) > 3 {
		mask = att.Inputs[3]
	}
	att.Inputs = []string{att.Inputs[0], cats[0].Inputs[1], cats[1].Inputs[1], mask, cats[0].Inputs[0], cats[1].Inputs[0]}
	att.Outputs = append(att.Outputs, cats[0].Outputs[0], cats[1].Outputs[0])
	return cats[:]
}

// rank4 returns the shape of value v when it is float32 of known rank 4.
func (f *fuser) rank4(v string) ([]int, bool) {
	vi := f.g.Values[v]
	if vi == nil || vi.DType != payload.Float32 || !vi.RankKnown || len(vi.Shape) != 4 || vi.Kind != 0 {
		return nil, false
	}
	return vi.Shape, true
}

// attnSame reports whether the known sizes among ds agree.
func attnSame(ds ...int) bool {
	k := -1
	for _, d := range ds {
		if d < 0 {
			continue
		}
		if k >= 0 && d != k {
			return false
		}
		k = d
	}
	return true
}

// attention matches the pattern from the scores' MatMul mm and returns
// the nodes it replaces, in order, and the Attention node; nil when it
// does not match. It changes nothing when it returns nil; when it
// matches a Kᵀ of perm (0, 2, 3, 1) it rewrites that Transpose.
func (f *fuser) attention(mm *Node, producer map[string]*Node) ([]*Node, *Node) {
	if len(mm.Inputs) != 2 || len(mm.Outputs) != 1 || mm.Outputs[0] == "" || mm.Inputs[0] == mm.Inputs[1] {
		return nil, nil
	}
	q, kt := mm.Inputs[0], mm.Inputs[1]
	// PyTorch's export of scaled_dot_product_attention multiplies Q and
	// Kᵀ each by a constant (√scale) before their product.
	var pre []*Node
	preScale := float32(1)
	ktReader := mm
	if m, c, x := f.attnPreScale(q, mm, producer); m != nil {
		q, preScale, pre = x, c, append(pre, m)
	}
	if m, c, x := f.attnPreScale(kt, mm, producer); m != nil {
		kt, preScale, pre, ktReader = x, preScale*c, append(pre, m), m
	}
	qs, ok := f.rank4(q)
	if !ok {
		return nil, nil
	}
	ss, ok := f.rank4(mm.Outputs[0])
	if !ok {
		return nil, nil
	}
	// Kᵀ: a Transpose that only this MatMul reads.
	tr := producer[kt]
	if tr == nil || tr.OpType != "Transpose" || !isDefaultDomain(tr.Domain) || f.removed[tr] || len(tr.Inputs) != 1 || len(tr.Outputs) != 1 || tr.Fused != nil {
		return nil, nil
	}
	if us := f.users[kt]; len(us) != 1 || us[0] != ktReader {
		return nil, nil
	}
	k4s, ok := f.rank4(tr.Inputs[0])
	if !ok {
		return nil, nil
	}
	perm, err := tr.Ints("perm", nil)
	if err != nil || len(perm) != 4 {
		return nil, nil
	}
	var ks []int // K's shape, [B, H, T, d]
	var swap bool
	switch {
	case perm[0] == 0 && perm[1] == 1 && perm[2] == 3 && perm[3] == 2:
		ks = k4s
	case perm[0] == 0 && perm[1] == 2 && perm[2] == 3 && perm[3] == 1:
		ks = []int{k4s[0], k4s[2], k4s[1], k4s[3]}
		swap = true
	default:
		return nil, nil
	}
	nodes := append(pre, mm)
	cur := mm.Outputs[0]
	scale := float32(1)
	// The scale.
	if u := f.lnNext(cur, "Mul"); u != nil && len(u.Inputs) == 2 && u.Inputs[0] != u.Inputs[1] {
		c, ok := f.attnScalar(otherInput(u, cur))
		if !ok {
			return nil, nil
		}
		scale = c
		nodes = append(nodes, u)
		cur = u.Outputs[0]
	} else if u := f.lnNext(cur, "Div"); u != nil && len(u.Inputs) == 2 && u.Inputs[0] == cur {
		c, ok := f.attnScalar(u.Inputs[1])
		if !ok || c == 0 {
			return nil, nil
		}
		scale = 1 / c
		if math.IsInf(float64(scale), 0) {
			return nil, nil
		}
		nodes = append(nodes, u)
		cur = u.Outputs[0]
	}
	scale *= preScale
	if scale == 0 || math.IsInf(float64(scale), 0) {
		return nil, nil
	}
	// The mask.
	var mask string
	if u := f.lnNext(cur, "Add"); u != nil && len(u.Inputs) == 2 && u.Inputs[0] != u.Inputs[1] {
		m := otherInput(u, cur)
		if !f.attnMask(m, ss) {
			return nil, nil
		}
		mask = m
		nodes = append(nodes, u)
		cur = u.Outputs[0]
	}
	sm := f.lnNext(cur, "Softmax")
	if sm == nil || len(sm.Inputs) != 1 {
		return nil, nil
	}
	_, rule, err := BindNode(sm, OpsetOf(f.g, sm.Domain))
	if err != nil || rule == nil {
		return nil, nil
	}
	if a, ok := rule.(*SoftmaxAttrs); !ok || (a.Axis != 3 && a.Axis != -1) {
		return nil, nil
	}
	nodes = append(nodes, sm)
	out := f.only(sm.Outputs[0])
	if out == nil || out.OpType != "MatMul" || len(out.Inputs) != 2 || out.Inputs[0] != sm.Outputs[0] || out.Fused != nil || !f.isF32(out.Outputs[0]) {
		return nil, nil
	}
	v := out.Inputs[1]
	vs, ok := f.rank4(v)
	if !ok {
		return nil, nil
	}
	nodes = append(nodes, out)
	// Grouped heads: K and V each repeated from fewer key/value heads by
	// the same factor; the node reads the sources and pairs the heads.
	var rep, shapeNodes []*Node
	if !swap {
		kSrc, kg, kRep, kShape, kOK := f.headRepeat(tr.Inputs[0], producer)
		vSrc, vg, vRep, vShape, vOK := f.headRepeat(v, producer)
		if kOK != vOK || (kOK && (kg != vg || kSrc == vSrc)) {
			return nil, nil
		}
		if kOK {
			ks, _ = f.rank4(kSrc)
			vs, _ = f.rank4(vSrc)
			if (qs[1] >= 0 && qs[1] != ks[1]*kg) || !attnSame(qs[1], ss[1]) || !attnSame(ks[1], vs[1]) {
				return nil, nil
			}
			rep = append(kRep, vRep...)
			shapeNodes = append(kShape, vShape...)
			v = vSrc
			// Compare the other dims below as without groups.
			qs = []int{qs[0], ks[1], qs[2], qs[3]}
			ss = []int{ss[0], ks[1], ss[2], ss[3]}
		}
	}
	// Q, K and V agree on batch and heads (no broadcasting), on the head
	// size and on T.
	if !attnSame(qs[0], ks[0], vs[0], ss[0]) || !attnSame(qs[1], ks[1], vs[1], ss[1]) ||
		!attnSame(qs[2], ss[2]) || !attnSame(qs[3], ks[3]) || !attnSame(ks[2], vs[2], ss[3]) {
		return nil, nil
	}
	if !f.normTail(nodes) {
		return nil, nil
	}
	for _, c := range nodes {
		if len(c.Outputs) != 1 || !f.isF32(c.Outputs[0]) {
			return nil, nil
		}
	}
	k := tr.Inputs[0]
	if swap {
		tr.Attrs = append(tr.Attrs[:0:0], tr.Attrs...)
		for i := range tr.Attrs {
			if tr.Attrs[i].Name == "perm" {
				tr.Attrs[i] = Attr{Name: "perm", Type: AttrInts, Ints: []int64{0, 2, 1, 3}}
			}
		}
		vi := *f.g.Values[kt]
		vi.Shape = ks
		vi.RankKnown = true
		if src := f.g.Values[tr.Inputs[0]]; src != nil && len(src.DimParams) == 4 {
			p := src.DimParams
			vi.DimParams = []string{p[0], p[2], p[1], p[3]}
		} else {
			vi.DimParams = nil
		}
		f.g.Values[kt] = &vi
		k = kt
	} else {
		nodes = append([]*Node{tr}, nodes...)
	}
	if rep != nil {
		k = rep[0].Inputs[0]
		// The nodes building the repeats' shapes from the caches'
		// shapes go too when only the repeats read them.
		rep = append(f.deadWith(shapeNodes, append(rep, nodes...)), rep...)
		nodes = append(rep, nodes...)
	}
	att := &Node{Name: out.Name, OpType: "Attention", Domain: EwDomain, Inputs: []string{q, k, v},
		Outputs: []string{out.Outputs[0]},
		Attrs:   []Attr{{Name: "scale", Type: AttrFloat, F: scale}}}
	if mask != "" {
		att.Inputs = append(att.Inputs, mask)
	}
	return nodes, att
}

// attnScalar returns the value of v when it is a float32 constant of one
// element whose rank does not widen the rank-4 scores.
// attnPreScale returns the Mul that makes v, read by reader only, as a
// float32 value times a constant scalar c, with c and that value; nil
// when v is made otherwise.
func (f *fuser) attnPreScale(v string, reader *Node, producer map[string]*Node) (*Node, float32, string) {
	m := producer[v]
	if us := f.users[v]; m == nil || len(us) != 1 || us[0] != reader {
		return nil, 0, ""
	}
	if f.removed[m] || m.OpType != "Mul" || !isDefaultDomain(m.Domain) || m.Fused != nil || len(m.Inputs) != 2 || len(m.Outputs) != 1 || m.Inputs[0] == m.Inputs[1] {
		return nil, 0, ""
	}
	for i, in := range m.Inputs {
		if c, ok := f.attnScalar(in); ok && f.g.Const(m.Inputs[1-i]) == nil && f.isF32(m.Inputs[1-i]) {
			return m, c, m.Inputs[1-i]
		}
	}
	return nil, 0, ""
}

func (f *fuser) attnScalar(v string) (float32, bool) {
	t := f.g.Const(v)
	if t == nil || len(t.Shape) > 4 {
		return 0, false
	}
	c, ok := f.scalar(v)
	if !ok || c != c || math.IsInf(float64(c), 0) {
		return 0, false
	}
	return c, true
}

// attnMask reports whether m, added to the scores of shape ss, can be
// Attention's attn_mask: float32 of rank at most 4, each dim 1 or the
// scores' (an unknown dim is taken as fitting, as Attention's rule checks
// it at run time; a last dim of 1 adds one value to a whole row, which
// the node does under MaskExact), and when constant, no row all -inf.
func (f *fuser) attnMask(m string, ss []int) bool {
	vi := f.g.Values[m]
	if vi == nil || vi.DType != payload.Float32 || !vi.RankKnown || len(vi.Shape) < 1 || len(vi.Shape) > 4 || vi.Kind != 0 {
		return false
	}
	r := len(vi.Shape)
	for i, d := range vi.Shape {
		j := 4 - r + i
		s := ss[j]
		if j == 3 {
			if d > 1 && s >= 0 && d != s {
				return false
			}
			continue
		}
		if d == 1 || (d >= 0 && d == s) || d < 0 {
			continue
		}
		return false
	}
	if t := f.g.Const(m); t != nil {
		v, err := View[float32](t)
		if err != nil {
			return false
		}
		if len(t.Shape) != r {
			return false
		}
		w := t.Shape[r-1]
		for o := 0; o+w <= len(v) && w > 0; o += w {
			all := true
			for _, x := range v[o : o+w] {
				if !math.IsInf(float64(x), -1) {
					all = false
					break
				}
			}
			if all {
				return false
			}
		}
	}
	return true
}
