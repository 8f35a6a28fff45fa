package model

import "github.com/lintel-ml/lintel/payload"

// headRepeat matches the grouped-heads repeat that exporters write to
// give each query head its key/value head, r = Reshape(Expand(
// Unsqueeze(src, axes 2), shape), dims) with src [B, Hkv, T, d]: the
// Unsqueeze gives [B, Hkv, 1, T, d], the Expand shape (1 or B, 1 or Hkv,
// g, 1 or T, 1 or d) repeats each head g times, and the Reshape dims
// (B, Hkv·g, T or -1, d) merge the two head dims, so that head h of r is
// head h/g of src, as Attention pairs query and key/value heads. The
// shape and the dims may be constants or, as tracing exporters write
// them, built at run time from src's own shape (shapeVec): B, T and d
// as src's dims 0, 2 and 3, Hkv·g as its dim 1 times g; g is a constant.
// It returns src, g and the three nodes in graph order, then the nodes
// that build the shape and the dims (to go with them when nothing else
// reads them), when r is such a repeat read by one node only, Hkv and d
// known; ok false otherwise.
func (f *fuser) headRepeat(r string, producer map[string]*Node) (src string, g int, nodes, shapeNodes []*Node, ok bool) {
	rs := f.repeatNode(r, "Reshape", producer)
	if rs == nil || len(rs.Inputs) != 2 {
		return "", 0, nil, nil, false
	}
	if az, err := rs.Int("allowzero", 0); err != nil || az != 0 {
		return "", 0, nil, nil, false
	}
	ex := f.repeatNode(rs.Inputs[0], "Expand", producer)
	if ex == nil || len(ex.Inputs) != 2 {
		return "", 0, nil, nil, false
	}
	un := f.repeatNode(ex.Inputs[0], "Unsqueeze", producer)
	if un == nil || len(un.Inputs) < 1 {
		return "", 0, nil, nil, false
	}
	var axes []int64
	if len(un.Inputs) >= 2 && un.Inputs[1] != "" {
		axes, ok = f.constInt64s(un.Inputs[1])
		if !ok {
			return "", 0, nil, nil, false
		}
	} else {
		var err error
		if axes, err = un.Ints("axes", nil); err != nil {
			return "", 0, nil, nil, false
		}
	}
	if len(axes) != 1 || (axes[0] != 2 && axes[0] != -3) {
		return "", 0, nil, nil, false
	}
	src = un.Inputs[0]
	ss, ok := f.rank4(src)
	if !ok || ss[1] <= 0 || ss[3] <= 0 {
		return "", 0, nil, nil, false
	}
	b, hkv, t, d := int64(ss[0]), int64(ss[1]), int64(ss[2]), int64(ss[3])
	// known reports whether e is src's dim a, or the constant c when
	// that dim's size c is known.
	known := func(e dimRef, a int, c int64) bool { return e.is(src, a) || (c >= 0 && e.konst(c)) }
	es, esNodes, ok := f.shapeVec(ex.Inputs[1], producer)
	if !ok || len(es) != 5 || es[2].src != "" || es[2].c < 1 {
		return "", 0, nil, nil, false
	}
	gg := es[2].c
	if !(es[0].konst(1) || known(es[0], 0, b)) || !(es[1].konst(1) || known(es[1], 1, hkv)) ||
		!(es[3].konst(1) || known(es[3], 2, t)) || !(es[4].konst(1) || known(es[4], 3, d)) {
		return "", 0, nil, nil, false
	}
	rd, rdNodes, ok := f.shapeVec(rs.Inputs[1], producer)
	if !ok || len(rd) != 4 || !known(rd[0], 0, b) || !known(rd[3], 3, d) ||
		!(rd[1].konst(hkv*gg) || (rd[1].src == src && rd[1].axis == 1 && rd[1].mul == gg)) ||
		!(rd[2].konst(-1) || known(rd[2], 2, t)) {
		return "", 0, nil, nil, false
	}
	return src, int(gg), []*Node{un, ex, rs}, append(esNodes, rdNodes...), true
}

// repeatNode returns the default-domain node of type op producing v when
// v is read by one node only and is no graph output; nil otherwise.
func (f *fuser) repeatNode(v, op string, producer map[string]*Node) *Node {
	n := producer[v]
	if n == nil || n.OpType != op || !isDefaultDomain(n.Domain) || f.removed[n] || n.Fused != nil ||
		len(n.Outputs) != 1 || n.Outputs[0] != v {
		return nil
	}
	if us := f.users[v]; len(us) != 1 || us[0] == nil {
		return nil
	}
	return n
}

// constInt64s returns the values of v when it is an int64 constant of
// rank at most 1.
func (f *fuser) constInt64s(v string) ([]int64, bool) {
	t := f.g.Const(v)
	if t == nil || t.DType != payload.Int64 || len(t.Shape) > 1 {
		return nil, false
	}
	x, err := View[int64](t)
	return x, err == nil
}
