package model

import "github.com/lintel-ml/lintel/payload"

// headRepeat matches the grouped-heads repeat that exporters write to
// give each query head its key/value head, r = Reshape(Expand(
// Unsqueeze(src, axes 2), shape), dims) with src [B, Hkv, T, d]: the
// Unsqueeze gives [B, Hkv, 1, T, d], the constant Expand shape
// (1 or B, 1 or Hkv, g, 1 or T, 1 or d) repeats each head g times, and
// the constant Reshape dims (B, Hkv·g, T or -1, d) merge the two head
// dims, so that head h of r is head h/g of src, as Attention pairs
// query and key/value heads. It returns src, g and the three nodes in
// graph order when r is such a repeat read by one node only, every dim
// named known (B, Hkv and d); ok false otherwise.
func (f *fuser) headRepeat(r string, producer map[string]*Node) (src string, g int, nodes []*Node, ok bool) {
	rs := f.repeatNode(r, "Reshape", producer)
	if rs == nil || len(rs.Inputs) != 2 {
		return "", 0, nil, false
	}
	if az, err := rs.Int("allowzero", 0); err != nil || az != 0 {
		return "", 0, nil, false
	}
	ex := f.repeatNode(rs.Inputs[0], "Expand", producer)
	if ex == nil || len(ex.Inputs) != 2 {
		return "", 0, nil, false
	}
	un := f.repeatNode(ex.Inputs[0], "Unsqueeze", producer)
	if un == nil || len(un.Inputs) < 1 {
		return "", 0, nil, false
	}
	var axes []int64
	if len(un.Inputs) >= 2 && un.Inputs[1] != "" {
		axes, ok = f.constInt64s(un.Inputs[1])
		if !ok {
			return "", 0, nil, false
		}
	} else {
		var err error
		if axes, err = un.Ints("axes", nil); err != nil {
			return "", 0, nil, false
		}
	}
	if len(axes) != 1 || (axes[0] != 2 && axes[0] != -3) {
		return "", 0, nil, false
	}
	ss, ok := f.rank4(un.Inputs[0])
	if !ok || ss[0] <= 0 || ss[1] <= 0 || ss[3] <= 0 {
		return "", 0, nil, false
	}
	b, hkv, t, d := int64(ss[0]), int64(ss[1]), int64(ss[2]), int64(ss[3])
	es, ok := f.constInt64s(ex.Inputs[1])
	if !ok || len(es) != 5 || es[2] < 1 ||
		(es[0] != 1 && es[0] != b) || (es[1] != 1 && es[1] != hkv) ||
		(es[3] != 1 && (t < 0 || es[3] != t)) || (es[4] != 1 && es[4] != d) {
		return "", 0, nil, false
	}
	rd, ok := f.constInt64s(rs.Inputs[1])
	if !ok || len(rd) != 4 || rd[0] != b || rd[1] != hkv*es[2] || rd[3] != d ||
		(rd[2] != -1 && (t < 0 || rd[2] != t)) {
		return "", 0, nil, false
	}
	return un.Inputs[0], int(es[2]), []*Node{un, ex, rs}, true
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
