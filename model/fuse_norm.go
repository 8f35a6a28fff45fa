package model

import (
	"strconv"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// FuseNorms replaces the float32 layer normalisation that exporters
// spell out, ReduceMean(x) → Sub(x, mean) → Pow(d, 2) (or Mul(d, d)) →
// ReduceMean → Add(eps) → Sqrt → Div(d, ·), then an optional Mul by a
// constant scale and Add of a constant bias, both of the normalised
// dims' size, with one LayerNormalization node over the same trailing
// axes. Below opset 17, where ONNX has no LayerNormalization, the node
// is the one of EwDomain, which binds as opset 17's. Only values used by
// nothing else and not graph outputs are absorbed; the node takes the
// last one's output. It replaces likewise the RMS normalisation
// Pow(x, 2) → ReduceMean → Add(eps) → Sqrt → Div(x, ·), then an optional
// Mul by a constant scale, with one RMSNormalization node (EwDomain's
// below opset 23). Run it before FuseActivations. g must be sorted, and
// typed by InferTypes.
func FuseNorms(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	f := newFuser(g)
	replace := map[*Node]*Node{}
	for _, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		if f.removed[n] || !isDefaultDomain(n.Domain) {
			continue
		}
		var nodes []*Node
		var ln *Node
		switch n.OpType {
		case "ReduceMean":
			nodes, ln = f.layerNorm(n)
		case "Pow":
			nodes, ln = f.rmsNorm(n)
		}
		if ln == nil {
			continue
		}
		last := nodes[len(nodes)-1]
		for _, c := range nodes {
			f.removed[c] = true
			if c != last {
				delete(g.Values, c.Outputs[0])
			}
		}
		replace[last] = ln
	}
	if len(replace) == 0 {
		return nil
	}
	f.rebuild(replace)
	return nil
}

// lnNext returns v's only consumer if it is a default-domain op of type
// op with one output, float32.
func (f *fuser) lnNext(v, op string) *Node {
	u := f.only(v)
	if u == nil || u.OpType != op || !f.isF32(u.Outputs[0]) {
		return nil
	}
	return u
}

// layerNorm matches the pattern from the first ReduceMean mean and
// returns its nodes, in order, and the node replacing them; nil when it
// does not match.
func (f *fuser) layerNorm(mean *Node) ([]*Node, *Node) {
	x := mean.Input(0)
	xv := f.g.Values[x]
	if xv == nil || xv.DType != payload.Float32 || !xv.RankKnown || !f.isF32(mean.Outputs[0]) {
		return nil, nil
	}
	rank := len(xv.Shape)
	k, ok := f.meanAxes(mean, rank)
	if !ok {
		return nil, nil
	}
	sub := f.lnNext(mean.Outputs[0], "Sub")
	if sub == nil || len(sub.Inputs) != 2 || sub.Inputs[0] != x || sub.Inputs[1] != mean.Outputs[0] {
		return nil, nil
	}
	d := sub.Outputs[0]
	us := f.users[d]
	if len(us) != 2 || us[0] == nil || us[1] == nil || f.removed[us[0]] || f.removed[us[1]] {
		return nil, nil
	}
	sq, div := us[0], us[1]
	if div.OpType != "Div" {
		sq, div = div, sq
	}
	switch {
	case sq.OpType == "Pow" && len(sq.Inputs) == 2 && sq.Inputs[0] == d:
		if v, ok := f.scalar(sq.Inputs[1]); !ok || v != 2 {
			return nil, nil
		}
	case sq.OpType == "Mul" && len(sq.Inputs) == 2 && sq.Inputs[0] == d && sq.Inputs[1] == d:
		// Mul(d, d) lists d twice: users holds it twice.
		return nil, nil
	default:
		return nil, nil
	}
	if div.OpType != "Div" || len(div.Inputs) != 2 || div.Inputs[0] != d || !isDefaultDomain(div.Domain) || !isDefaultDomain(sq.Domain) || !f.isF32(sq.Outputs[0]) || !f.isF32(div.Outputs[0]) {
		return nil, nil
	}
	mean2 := f.lnNext(sq.Outputs[0], "ReduceMean")
	if mean2 == nil {
		return nil, nil
	}
	if k2, ok := f.meanAxes(mean2, rank); !ok || k2 != k {
		return nil, nil
	}
	add := f.lnNext(mean2.Outputs[0], "Add")
	if add == nil || len(add.Inputs) != 2 {
		return nil, nil
	}
	eps, ok := f.scalar(otherInput(add, mean2.Outputs[0]))
	if !ok {
		return nil, nil
	}
	sqrt := f.lnNext(add.Outputs[0], "Sqrt")
	if sqrt == nil || f.only(sqrt.Outputs[0]) != div || div.Inputs[1] != sqrt.Outputs[0] {
		return nil, nil
	}
	nodes := []*Node{mean, sub, sq, mean2, add, sqrt, div}
	dims := xv.Shape[rank-k:]
	for _, dim := range dims {
		if dim < 1 {
			return nil, nil
		}
	}
	var scale, bias string
	if mul := f.lnNext(div.Outputs[0], "Mul"); mul != nil && len(mul.Inputs) == 2 {
		if s := otherInput(mul, div.Outputs[0]); f.lnParam(s, dims, rank) {
			scale = s
			nodes = append(nodes, mul)
			if ad := f.lnNext(mul.Outputs[0], "Add"); ad != nil && len(ad.Inputs) == 2 {
				if b := otherInput(ad, mul.Outputs[0]); f.lnParam(b, dims, rank) {
					bias = b
					nodes = append(nodes, ad)
				}
			}
		}
	}
	if !f.normTail(nodes) {
		return nil, nil
	}
	if scale == "" {
		scale = f.ones(mean.Outputs[0]+"_scale", dims)
	}
	last := nodes[len(nodes)-1]
	ln := &Node{Name: last.Name, OpType: "LayerNormalization", Inputs: []string{x, scale},
		Outputs: []string{last.Outputs[0]},
		Attrs:   []Attr{{Name: "axis", Type: AttrInt, I: int64(-k)}, {Name: "epsilon", Type: AttrFloat, F: eps}}}
	if bias != "" {
		ln.Inputs = append(ln.Inputs, bias)
	}
	if f.g.Opset > 0 && f.g.Opset < 17 {
		ln.Domain = EwDomain
	}
	return nodes, ln
}

// rmsNorm matches the RMS normalisation from Pow(x, 2) and returns its
// nodes, in order, and the node replacing them; nil when it does not
// match.
func (f *fuser) rmsNorm(sq *Node) ([]*Node, *Node) {
	if len(sq.Inputs) != 2 || !f.isF32(sq.Outputs[0]) {
		return nil, nil
	}
	x := sq.Inputs[0]
	xv := f.g.Values[x]
	if xv == nil || xv.DType != payload.Float32 || !xv.RankKnown {
		return nil, nil
	}
	if v, ok := f.scalar(sq.Inputs[1]); !ok || v != 2 {
		return nil, nil
	}
	rank := len(xv.Shape)
	mean := f.lnNext(sq.Outputs[0], "ReduceMean")
	if mean == nil {
		return nil, nil
	}
	k, ok := f.meanAxes(mean, rank)
	if !ok {
		return nil, nil
	}
	add := f.lnNext(mean.Outputs[0], "Add")
	if add == nil || len(add.Inputs) != 2 {
		return nil, nil
	}
	eps, ok := f.scalar(otherInput(add, mean.Outputs[0]))
	if !ok {
		return nil, nil
	}
	sqrt := f.lnNext(add.Outputs[0], "Sqrt")
	if sqrt == nil {
		return nil, nil
	}
	div := f.lnNext(sqrt.Outputs[0], "Div")
	if div == nil || len(div.Inputs) != 2 || div.Inputs[0] != x || div.Inputs[1] != sqrt.Outputs[0] {
		return nil, nil
	}
	dims := xv.Shape[rank-k:]
	for _, dim := range dims {
		if dim < 1 {
			return nil, nil
		}
	}
	nodes := []*Node{sq, mean, add, sqrt, div}
	var scale string
	if mul := f.lnNext(div.Outputs[0], "Mul"); mul != nil && len(mul.Inputs) == 2 {
		if s := otherInput(mul, div.Outputs[0]); f.lnParam(s, dims, rank) {
			scale = s
			nodes = append(nodes, mul)
		}
	}
	if !f.normTail(nodes) {
		return nil, nil
	}
	if scale == "" {
		scale = f.ones(mean.Outputs[0]+"_scale", dims)
	}
	last := nodes[len(nodes)-1]
	rn := &Node{Name: last.Name, OpType: "RMSNormalization", Inputs: []string{x, scale},
		Outputs: []string{last.Outputs[0]},
		Attrs:   []Attr{{Name: "axis", Type: AttrInt, I: int64(-k)}, {Name: "epsilon", Type: AttrFloat, F: eps}}}
	if f.g.Opset > 0 && f.g.Opset < 23 {
		rn.Domain = EwDomain
	}
	return nodes, rn
}

// normTail reports whether every value of nodes but the last's is used
// only by the next nodes (never a graph output), and no node uses
// legacy broadcasting.
func (f *fuser) normTail(nodes []*Node) bool {
	for _, c := range nodes[:len(nodes)-1] {
		for _, u := range f.users[c.Outputs[0]] {
			if u == nil {
				return false
			}
		}
	}
	if f.g.Opset > 0 && f.g.Opset < 7 {
		for _, c := range nodes {
			if c.Has("broadcast") {
				return false
			}
		}
	}
	return true
}

// ones adds a constant of shape dims filled with 1, named after base.
func (f *fuser) ones(base string, dims []int) string {
	name := f.freshName(base)
	v := make([]float32, payload.NumElems(dims))
	for i := range v {
		v[i] = 1
	}
	f.g.Initializers[name] = NewTensor(name, dims, v)
	f.g.Values[name] = &ValueInfo{Name: name, DType: payload.Float32, Shape: append([]int(nil), dims...), RankKnown: true}
	return name
}

// meanAxes returns how many trailing axes ReduceMean n reduces (its
// axes, attribute or constant input, must be exactly the last ones and
// keepdims set), or false.
func (f *fuser) meanAxes(n *Node, rank int) (int, bool) {
	if len(n.Outputs) != 1 || rank < 1 {
		return 0, false
	}
	_, rule, err := BindNode(n, OpsetOf(f.g, n.Domain))
	if err != nil || rule == nil {
		return 0, false
	}
	a, ok := rule.(*ReduceAttrs)
	if !ok || !a.KeepDims {
		return 0, false
	}
	axes := a.Axes
	if a.AxesInput {
		t := f.g.Const(n.Input(1))
		if t == nil || t.DType != payload.Int64 {
			return 0, false
		}
		v, err := View[int64](t)
		if err != nil {
			return 0, false
		}
		axes = v
	}
	if len(axes) == 0 || len(axes) > rank {
		return 0, false
	}
	seen := make([]bool, rank)
	for _, ax := range axes {
		if ax < 0 {
			ax += int64(rank)
		}
		if ax < 0 || ax >= int64(rank) || seen[ax] {
			return 0, false
		}
		seen[ax] = true
	}
	k := len(axes)
	for i := rank - k; i < rank; i++ {
		if !seen[i] {
			return 0, false
		}
	}
	return k, true
}

// lnParam reports whether v is a constant float32 of shape dims, which
// broadcasts along x as LayerNormalization's scale or bias over dims.
func (f *fuser) lnParam(v string, dims []int, rank int) bool {
	t := f.g.Const(v)
	if t == nil || t.DType != payload.Float32 || len(t.Shape) != len(dims) || len(dims) > rank {
		return false
	}
	for i, d := range t.Shape {
		if d != dims[i] {
			return false
		}
	}
	_, err := View[float32](t)
	return err == nil
}

// freshName returns base, or base with a number appended, that names no
// value, initializer or node output of the graph.
func (f *fuser) freshName(base string) string {
	name := base
	for i := 1; ; i++ {
		if _, ok := f.g.Values[name]; !ok && f.g.Initializers[name] == nil && len(f.users[name]) == 0 {
			return name
		}
		name = base + "_" + strconv.Itoa(i)
	}
}
