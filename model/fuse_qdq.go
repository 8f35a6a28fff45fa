package model

import (
	"math"
	"slices"
	"strconv"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// FuseQDQ rewrites the node units of a QDQ model (DequantizeLinear on
// each input, one float op, QuantizeLinear on its output) into the
// integer ops ONNX Runtime's QDQ transformer turns them into on CPU, so
// that the results are ONNX Runtime's:
//
//   - DQ(x), DQ(w constant), optional DQ(b constant int32) → Conv → Q
//     becomes QLinearConv, with b as its int32 bias;
//   - DQ(a), DQ(b constant 2-D) → MatMul → Q becomes QLinearMatMul;
//   - DQ(a), DQ(b constant 2-D), optional DQ(c constant int32) → Gemm
//     (alpha = beta = 1, transA = 0) → Q becomes QLinearMatMul of b
//     (transposed at load when transB = 1) with c as a fused int32 bias
//     (Fusion.Bias, input 8), as ONNX Runtime's QGemm computes it;
//   - a Relu or Clip between such an op and its Q is dropped where ONNX
//     Runtime's ReluQuantFusion and ClipQuantFusion drop it: where Q's
//     saturation alone clamps as it would;
//   - DQ(a), DQ(b) → Add or Mul → Q becomes com.microsoft QLinearAdd or
//     QLinearMul, a dropped Relu or Clip as above;
//   - DQ(x) → Sigmoid, LeakyRelu, GlobalAveragePool or AveragePool (no
//     dilations) → Q becomes com.microsoft QLinearSigmoid,
//     QLinearLeakyRelu, QLinearGlobalAveragePool (where its image size
//     is known and its multiplier in the range ONNX Runtime computes in)
//     or QLinearAveragePool;
//   - DQ(x) → MaxPool, Reshape, Transpose, Flatten, Squeeze, Unsqueeze
//     or nearest Resize (not tf_crop_and_resize, whose extrapolation
//     value is a float) → Q, and DQ(xᵢ) → Concat → Q, with one scale and
//     zero point on
//     every DQ and the Q, run the op on the 8-bit values: a DQ followed
//     by a Q of the same parameters gives the value back exactly.
//
// Activations are per tensor, int8 or uint8, and the output of the type
// of the input; weights int8 (uint8 with uint8 activations), per tensor
// or per output channel. A unit that does not match exactly is left as
// it is. DequantizeLinear nodes nothing reads any more are removed. Run
// it before Fold (which would fold the weights' DequantizeLinear into
// float constants). g must be sorted, and typed by InferTypes.
func FuseQDQ(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	f := newFuser(g)
	q := &qdqFuser{fuser: f, producer: map[string]*Node{}}
	for _, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		for _, o := range n.Outputs {
			if o != "" {
				q.producer[o] = n
			}
		}
	}
	for _, n := range g.Nodes {
		if f.removed[n] || !isDefaultDomain(n.Domain) || len(n.Outputs) != 1 {
			continue
		}
		switch n.OpType {
		case "Conv":
			q.conv(n)
		case "MatMul":
			q.matmul(n)
		case "Gemm":
			q.gemm(n)
		case "MaxPool", "Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze":
			q.move(n, 1)
		case "Concat":
			q.move(n, len(n.Inputs))
		case "Resize":
			// Nearest picks input values: exact on the 8-bit ones.
			mode, err1 := n.String("mode", "nearest")
			ct, err2 := n.String("coordinate_transformation_mode", "half_pixel")
			if err1 == nil && err2 == nil && mode == "nearest" && ct != "tf_crop_and_resize" {
				q.move(n, 1)
			}
		case "Add", "Mul":
			q.binary(n)
		case "Sigmoid", "LeakyRelu", "GlobalAveragePool", "AveragePool":
			q.unary(n)
		}
	}
	if !q.changed {
		return nil
	}
	q.dropUnusedDQ()
	f.rebuild(nil)
	return nil
}

// qdqFuser is FuseQDQ's view of the graph.
type qdqFuser struct {
	*fuser
	producer map[string]*Node
	changed  bool
	consts   int // names handed out for new constants
}

// qparams are a DequantizeLinear's or QuantizeLinear's: the 8-bit value
// (the DQ's input, the Q's output), its type, the scale and zero point
// constants (zp "" for none, meaning 0), and the axis.
type qparams struct {
	node   *Node
	q      string
	dt     payload.DType
	scale  []float32
	sName  string
	zp     []int32
	zpName string
	axis   int64
}

// perTensor reports whether p has one scale and one zero point.
func (p *qparams) perTensor() bool { return len(p.scale) == 1 && len(p.zp) <= 1 }

// zero returns the zero point (the first one), 0 for none.
func (p *qparams) zero() int32 {
	if len(p.zp) == 0 {
		return 0
	}
	return p.zp[0]
}

// sameAs reports whether p and o quantize alike, per tensor.
func (p *qparams) sameAs(o *qparams) bool {
	return p.perTensor() && o.perTensor() && p.dt == o.dt && math.Float32bits(p.scale[0]) == math.Float32bits(o.scale[0]) && p.zero() == o.zero()
}

// quantParams reads n's scale (input 1, float32) and zero point (input
// 2, of type dt when present); ok is false when they are not constants
// of those types or n has attributes FuseQDQ does not handle.
func (q *qdqFuser) quantParams(n *Node, dt payload.DType) (qparams, bool) {
	p := qparams{node: n, dt: dt, sName: n.Input(1), zpName: n.Input(2)}
	if len(n.Inputs) < 2 || len(n.Inputs) > 3 || len(n.Outputs) != 1 || !isDefaultDomain(n.Domain) {
		return p, false
	}
	if b, err := n.Int("block_size", 0); err != nil || b != 0 {
		return p, false
	}
	ax, err := n.Int("axis", 1)
	if err != nil {
		return p, false
	}
	p.axis = ax
	s := q.g.Const(p.sName)
	if s == nil || s.DType != payload.Float32 || s.NumElems() < 1 || len(s.Shape) > 1 {
		return p, false
	}
	if p.scale, err = View[float32](s); err != nil {
		return p, false
	}
	for _, v := range p.scale {
		// A scale outside the normal range makes x/scale·scale inexact.
		if !(v >= 0x1p-100 && v <= 0x1p100) {
			return p, false
		}
	}
	if p.zpName != "" {
		z := q.g.Const(p.zpName)
		if z == nil || z.DType != dt || z.NumElems() != s.NumElems() || len(z.Shape) != len(s.Shape) {
			return p, false
		}
		p.zp = readZeroPoints(z)
		if p.zp == nil {
			return p, false
		}
	}
	return p, true
}

// readZeroPoints returns the int8 or uint8 values of z, nil for another
// type or a tensor whose bytes do not match its shape.
func readZeroPoints(z *Tensor) []int32 {
	if len(z.Raw) != z.NumElems() {
		return nil
	}
	out := make([]int32, len(z.Raw))
	switch z.DType {
	case payload.Int8:
		for i, b := range z.Raw {
			out[i] = int32(int8(b))
		}
	case payload.Uint8:
		for i, b := range z.Raw {
			out[i] = int32(b)
		}
	default:
		return nil
	}
	return out
}

// dq returns the parameters of the DequantizeLinear producing v from an
// 8-bit value.
func (q *qdqFuser) dq(v string) (qparams, bool) {
	n := q.producer[v]
	if n == nil || q.removed[n] || n.OpType != "DequantizeLinear" {
		return qparams{}, false
	}
	x := n.Input(0)
	dt := payload.Undefined
	if c := q.g.Const(x); c != nil {
		dt = c.DType
	} else if vi := q.g.Values[x]; vi != nil {
		dt = vi.DType
	}
	if dt != payload.Int8 && dt != payload.Uint8 {
		return qparams{}, false
	}
	p, ok := q.quantParams(n, dt)
	p.q = x
	return p, ok && q.isF32(v)
}

// quantOut returns the QuantizeLinear that alone reads v, per tensor, to
// int8 or uint8.
func (q *qdqFuser) quantOut(v string) (qparams, bool) {
	n := q.only(v)
	if n == nil || n.OpType != "QuantizeLinear" || len(n.Inputs) != 3 {
		return qparams{}, false
	}
	z := q.g.Const(n.Inputs[2])
	if z == nil || (z.DType != payload.Int8 && z.DType != payload.Uint8) {
		return qparams{}, false
	}
	if od, err := n.Int("output_dtype", 0); err != nil || (od != 0 && od != int64(z.DType)) {
		return qparams{}, false
	}
	p, ok := q.quantParams(n, z.DType)
	p.q = n.Outputs[0]
	return p, ok && p.perTensor() && q.isF32(v)
}

// unitOut finds the Q that ends the unit of op n: the one reading n's
// output, or the one after a Relu or Clip that ONNX Runtime drops before
// it. It returns the nodes to remove with the Q.
func (q *qdqFuser) unitOut(n *Node) (qparams, []*Node, bool) {
	out := n.Outputs[0]
	if p, ok := q.quantOut(out); ok {
		return p, []*Node{p.node}, true
	}
	act := q.only(out)
	if act == nil || (act.OpType != "Relu" && act.OpType != "Clip") || !q.isF32(act.Outputs[0]) {
		return qparams{}, nil, false
	}
	p, ok := q.quantOut(act.Outputs[0])
	if !ok {
		return qparams{}, nil, false
	}
	lo, hi := quantLimits(p.dt)
	zp := p.zero()
	if act.OpType == "Relu" {
		// ReluQuantFusion: Q's zero point is its type's lowest value.
		if zp != lo {
			return qparams{}, nil, false
		}
	} else {
		// ClipQuantFusion: the clip covers the values Q does not
		// saturate.
		cmin, cmax, ok := q.clipBounds(act)
		if !ok || !(cmin <= domainMinUpper(p.scale[0], lo-zp) && domainMaxLower(p.scale[0], hi-zp) <= cmax) {
			return qparams{}, nil, false
		}
	}
	return p, []*Node{act, p.node}, true
}

// quantLimits returns the range of int8 or uint8.
func quantLimits(dt payload.DType) (int32, int32) {
	if dt == payload.Int8 {
		return -128, 127
	}
	return 0, 255
}

// domainMinUpper is the largest x that Q with the given scale takes to
// the biased lowest value b (lowest − zero point) or below, as ONNX
// Runtime's QuantizeDomain computes it.
func domainMinUpper(scale float32, b int32) float32 {
	r := float32(b) + 0.5
	if b%2 == 1 {
		r = math.Nextafter32(r, float32(b))
	}
	return r * scale
}

// domainMaxLower is the smallest x that Q takes to the biased highest
// value b or above, as ONNX Runtime's QuantizeDomain computes it.
func domainMaxLower(scale float32, b int32) float32 {
	r := float32(b) - 0.5
	if b%2 == 1 {
		r = math.Nextafter32(r, float32(b))
	}
	return r * scale
}

// weight returns the parameters of the DequantizeLinear of a constant
// 8-bit tensor of rank rank feeding v, with one scale or one per index
// of axis ax (count n), and its zero points all equal (and 0 for int8,
// as ONNX Runtime's symmetric weights).
func (q *qdqFuser) weight(v string, rank int, ax int64, n int) (qparams, *Tensor, bool) {
	p, ok := q.dq(v)
	if !ok {
		return p, nil, false
	}
	w := q.g.Const(p.q)
	if w == nil || len(w.Shape) != rank || len(w.Raw) != w.NumElems() {
		return p, nil, false
	}
	if len(p.scale) != 1 {
		a := p.axis
		if a < 0 {
			a += int64(rank)
		}
		if a != ax || len(p.scale) != n {
			return p, nil, false
		}
	}
	for _, z := range p.zp {
		if z != p.zp[0] || (p.dt == payload.Int8 && z != 0) {
			return p, nil, false
		}
	}
	return p, w, true
}

// bias returns the int32 constant a DequantizeLinear with zero point 0
// turns into input v, of n values.
func (q *qdqFuser) bias(v string, n int) (string, bool) {
	d := q.producer[v]
	if d == nil || q.removed[d] || d.OpType != "DequantizeLinear" || len(d.Inputs) < 2 || !q.isF32(v) {
		return "", false
	}
	b := q.g.Const(d.Inputs[0])
	if b == nil || b.DType != payload.Int32 || len(b.Shape) != 1 || b.Shape[0] != n {
		return "", false
	}
	if s := q.g.Const(d.Inputs[1]); s == nil || s.DType != payload.Float32 {
		return "", false
	}
	if z := d.Input(2); z != "" {
		zt := q.g.Const(z)
		if zt == nil || zt.DType != payload.Int32 {
			return "", false
		}
		zs, err := View[int32](zt)
		if err != nil {
			return "", false
		}
		for _, x := range zs {
			if x != 0 {
				return "", false
			}
		}
	}
	return b.Name, true
}

// typesFit reports whether activations x, output y and weights w are of
// types ONNX Runtime's integer kernels take: y as x, and w int8, or
// uint8 with uint8 x.
func typesFit(x, w, y payload.DType) bool {
	return x == y && (w == payload.Int8 || x == payload.Uint8)
}

// zeroName returns the name of p's zero point, adding a constant 0 of
// its type when it has none.
func (q *qdqFuser) zeroName(p *qparams) string {
	if p.zpName != "" {
		return p.zpName
	}
	name := q.newName("zero_point")
	t := &Tensor{Name: name, DType: p.dt, Shape: []int{}, Raw: AlignedBytes([]byte{0})}
	q.g.Initializers[name] = t
	q.g.Values[name] = &ValueInfo{Name: name, DType: p.dt, Shape: []int{}, RankKnown: true}
	return name
}

// newName returns a value name not yet in the graph.
func (q *qdqFuser) newName(what string) string {
	for {
		q.consts++
		name := "qdq_" + what + "_" + strconv.Itoa(q.consts)
		if q.g.Initializers[name] == nil && q.g.Values[name] == nil && q.producer[name] == nil {
			return name
		}
	}
}

// finish makes n write the unit's output y and removes the nodes after
// it that the unit absorbed.
func (q *qdqFuser) finish(n *Node, y qparams, gone []*Node) {
	delete(q.g.Values, n.Outputs[0])
	for _, g := range gone[:len(gone)-1] {
		delete(q.g.Values, g.Outputs[0])
	}
	for _, g := range gone {
		q.removed[g] = true
	}
	n.Outputs[0] = y.q
	q.producer[y.q] = n
	q.changed = true
}

// conv fuses DQ(x), DQ(w), DQ(b) → Conv → Q into QLinearConv.
func (q *qdqFuser) conv(n *Node) {
	if len(n.Inputs) < 2 || len(n.Inputs) > 3 {
		return
	}
	x, ok := q.dq(n.Inputs[0])
	if !ok || !x.perTensor() {
		return
	}
	wv := q.g.Const(q.dqInput(n.Inputs[1]))
	if wv == nil || len(wv.Shape) < 3 {
		return
	}
	m := wv.Shape[0]
	w, _, ok := q.weight(n.Inputs[1], len(wv.Shape), 0, m)
	if !ok {
		return
	}
	b := ""
	if n.Input(2) != "" {
		if b, ok = q.bias(n.Inputs[2], m); !ok {
			return
		}
	}
	y, gone, ok := q.unitOut(n)
	if !ok || !typesFit(x.dt, w.dt, y.dt) {
		return
	}
	in := []string{x.q, x.sName, q.zeroName(&x), w.q, w.sName, q.zeroName(&w), y.sName, q.zeroName(&y)}
	if b != "" {
		in = append(in, b)
	}
	n.OpType, n.Inputs = "QLinearConv", in
	q.finish(n, y, gone)
}

// dqInput returns the input of the DequantizeLinear producing v, or "".
func (q *qdqFuser) dqInput(v string) string {
	d := q.producer[v]
	if d == nil || d.OpType != "DequantizeLinear" {
		return ""
	}
	return d.Input(0)
}

// matmul fuses DQ(a), DQ(b constant) → MatMul → Q into QLinearMatMul.
func (q *qdqFuser) matmul(n *Node) {
	if len(n.Inputs) != 2 || n.Fused != nil {
		return
	}
	a, ok := q.dq(n.Inputs[0])
	if !ok || !a.perTensor() {
		return
	}
	wv := q.g.Const(q.dqInput(n.Inputs[1]))
	if wv == nil || len(wv.Shape) != 2 {
		return
	}
	w, _, ok := q.weight(n.Inputs[1], 2, 1, wv.Shape[1])
	if !ok {
		return
	}
	y, gone, ok := q.unitOut(n)
	if !ok || !typesFit(a.dt, w.dt, y.dt) {
		return
	}
	n.OpType = "QLinearMatMul"
	n.Inputs = []string{a.q, a.sName, q.zeroName(&a), w.q, w.sName, q.zeroName(&w), y.sName, q.zeroName(&y)}
	q.finish(n, y, gone)
}

// gemm fuses DQ(a), DQ(b constant), DQ(c) → Gemm → Q into QLinearMatMul
// with a fused int32 bias.
func (q *qdqFuser) gemm(n *Node) {
	if len(n.Inputs) < 2 || len(n.Inputs) > 3 || n.Fused != nil {
		return
	}
	for _, at := range []struct {
		name string
		want float32
	}{{"alpha", 1}, {"beta", 1}} {
		if v, err := n.Float(at.name, 1); err != nil || v != at.want {
			return
		}
	}
	ta, err := n.Int("transA", 0)
	if err != nil || ta != 0 {
		return
	}
	tb, err := n.Int("transB", 0)
	if err != nil || (tb != 0 && tb != 1) {
		return
	}
	a, ok := q.dq(n.Inputs[0])
	if !ok || !a.perTensor() {
		return
	}
	if av := q.g.Values[a.q]; av == nil || !av.RankKnown || len(av.Shape) != 2 {
		return
	}
	wv := q.g.Const(q.dqInput(n.Inputs[1]))
	if wv == nil || len(wv.Shape) != 2 {
		return
	}
	cols, colAxis := wv.Shape[1], int64(1)
	if tb == 1 {
		cols, colAxis = wv.Shape[0], 0
	}
	w, wt, ok := q.weight(n.Inputs[1], 2, colAxis, cols)
	if !ok {
		return
	}
	b := ""
	if n.Input(2) != "" {
		if b, ok = q.bias(n.Inputs[2], cols); !ok {
			return
		}
	}
	y, gone, ok := q.unitOut(n)
	if !ok || !typesFit(a.dt, w.dt, y.dt) {
		return
	}
	wq := w.q
	if tb == 1 {
		r, c := wt.Shape[0], wt.Shape[1]
		raw := make([]byte, r*c)
		for i := range r {
			for j := range c {
				raw[j*r+i] = wt.Raw[i*c+j]
			}
		}
		wq = q.newName("weight_t")
		q.g.Initializers[wq] = &Tensor{Name: wq, DType: wt.DType, Shape: []int{c, r}, Raw: AlignedBytes(raw)}
		q.g.Values[wq] = &ValueInfo{Name: wq, DType: wt.DType, Shape: []int{c, r}, RankKnown: true}
	}
	n.OpType, n.Attrs = "QLinearMatMul", nil
	n.Inputs = []string{a.q, a.sName, q.zeroName(&a), wq, w.sName, q.zeroName(&w), y.sName, q.zeroName(&y)}
	if b != "" {
		n.Inputs = append(n.Inputs, b)
		n.Fused = &Fusion{Bias: true}
	}
	q.finish(n, y, gone)
}

// binary fuses DQ(a), DQ(b) → Add or Mul → Q into QLinearAdd or
// QLinearMul, all three of one 8-bit type, per tensor.
func (q *qdqFuser) binary(n *Node) {
	if len(n.Inputs) != 2 || n.Fused != nil {
		return
	}
	a, ok := q.dq(n.Inputs[0])
	if !ok || !a.perTensor() {
		return
	}
	b, ok := q.dq(n.Inputs[1])
	if !ok || !b.perTensor() {
		return
	}
	y, gone, ok := q.unitOut(n)
	if !ok || a.dt != b.dt || a.dt != y.dt {
		return
	}
	n.Domain, n.OpType, n.Attrs = MSDomain, "QLinear"+n.OpType, nil
	n.Inputs = []string{a.q, a.sName, q.zeroName(&a), b.q, b.sName, q.zeroName(&b), y.sName, q.zeroName(&y)}
	q.finish(n, y, gone)
}

// unary fuses DQ(x) → Sigmoid, LeakyRelu, GlobalAveragePool or
// AveragePool → Q into its QLinear op, x and y of one 8-bit type, per
// tensor.
func (q *qdqFuser) unary(n *Node) {
	if len(n.Inputs) != 1 || n.Fused != nil {
		return
	}
	x, ok := q.dq(n.Inputs[0])
	if !ok || !x.perTensor() {
		return
	}
	y, ok := q.quantOut(n.Outputs[0])
	if !ok || x.dt != y.dt {
		return
	}
	switch n.OpType {
	case "LeakyRelu":
		// alpha stays.
	case "AveragePool":
		// The window stays; QLinearAveragePool has no dilations.
		if d, err := n.Ints("dilations", nil); err != nil || slices.ContainsFunc(d, func(v int64) bool { return v != 1 }) {
			return
		}
	case "GlobalAveragePool":
		vi := q.g.Values[x.q]
		if vi == nil || !vi.RankKnown || len(vi.Shape) < 3 {
			return
		}
		img := 1
		for _, d := range vi.Shape[2:] {
			if d <= 0 || d >= 1<<24 {
				return
			}
			img *= d
		}
		if img >= 1<<24 {
			return
		}
		if m := x.scale[0] / (y.scale[0] * float32(img)); !(m >= 0x1p-32 && m < 256) {
			return
		}
		n.Attrs = nil
	default:
		n.Attrs = nil
	}
	n.Domain, n.OpType = MSDomain, "QLinear"+n.OpType
	n.Inputs = []string{x.q, x.sName, q.zeroName(&x), y.sName, q.zeroName(&y)}
	q.finish(n, y, []*Node{y.node})
}

// move runs data-movement op n on the 8-bit values when its first k
// inputs are DQs and its output's Q all quantize alike.
func (q *qdqFuser) move(n *Node, k int) {
	if k < 1 || len(n.Inputs) < k {
		return
	}
	y, ok := q.quantOut(n.Outputs[0])
	if !ok {
		return
	}
	xs := make([]string, k)
	for i := range k {
		x, ok := q.dq(n.Inputs[i])
		if !ok || !x.sameAs(&y) {
			return
		}
		xs[i] = x.q
	}
	copy(n.Inputs, xs)
	q.finish(n, y, []*Node{y.node})
}

// dropUnusedDQ removes the DequantizeLinear nodes whose output nothing
// reads any more.
func (q *qdqFuser) dropUnusedDQ() {
	used := map[string]bool{}
	for _, n := range q.g.Nodes {
		if q.removed[n] {
			continue
		}
		for _, in := range n.Inputs {
			used[in] = true
		}
		for _, in := range implicitInputs(n) {
			used[in] = true
		}
	}
	for _, o := range q.g.Outputs {
		used[o.Name] = true
	}
	for _, n := range q.g.Nodes {
		if !q.removed[n] && n.OpType == "DequantizeLinear" && isDefaultDomain(n.Domain) && !used[n.Outputs[0]] {
			q.removed[n] = true
			delete(q.g.Values, n.Outputs[0])
		}
	}
}
