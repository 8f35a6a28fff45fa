package model

import "github.com/lintel-ml/lintel/payload"

// ConvIntegerToFloat names the node fuseConvIntegerScale writes, of
// EwDomain: ConvInteger's inputs and attributes, then the float32 scale
// and the optional constant float32 bias. Its float32 output is
// float32(ConvInteger(x, w, x_zero_point, w_zero_point))·scale + bias,
// multiplied and added as two roundings, scale one value or one an
// output channel, bias one value an output channel; with Fused.Act
// "Relu", then Relu.
const ConvIntegerToFloat = "ConvIntegerToFloat"

// fuseConvIntegerScale rewrites the tail that dynamic quantization
// writes after each ConvInteger, → Cast(to float) → Mul by a float32
// scale (one value, or one an output channel) → optional Add of a
// constant float32 bias of one value an output channel → optional Relu,
// into one ConvIntegerToFloat node. The nodes computed the same values
// one pass over memory each; the kernel computes them as it stores the
// convolution. Only values used by nothing else and not graph outputs
// are absorbed; the producer of the scale stays.
func (f *fuser) fuseConvIntegerScale(n *Node) {
	if len(n.Outputs) != 1 || len(n.Inputs) < 2 || len(n.Inputs) > 4 {
		return
	}
	out, w := f.g.Values[n.Outputs[0]], f.g.Values[n.Inputs[1]]
	if out == nil || !out.RankKnown || len(out.Shape) < 3 || w == nil || !w.RankKnown || len(w.Shape) < 1 || w.Shape[0] < 1 {
		return
	}
	m, rank := w.Shape[0], len(out.Shape)
	cast := f.only(n.Outputs[0])
	if cast == nil || cast.OpType != "Cast" || !f.isF32(cast.Outputs[0]) {
		return
	}
	mul := f.only(cast.Outputs[0])
	if mul == nil || mul.OpType != "Mul" || len(mul.Inputs) != 2 || !f.isF32(mul.Outputs[0]) {
		return
	}
	s := otherInput(mul, cast.Outputs[0])
	if s == "" || !(f.scalarF32(s, cast.Outputs[0]) || f.channelVec(s, m, rank)) {
		return
	}
	bias, last := "", mul
	if add := f.only(mul.Outputs[0]); add != nil && add.OpType == "Add" && len(add.Inputs) == 2 && f.isF32(add.Outputs[0]) {
		if b := otherInput(add, mul.Outputs[0]); b != "" && f.g.Const(b) != nil && f.channelVec(b, m, rank) {
			bias, last = b, add
		}
	}
	relu := false
	if r := f.only(last.Outputs[0]); r != nil && r.OpType == "Relu" && len(r.Inputs) == 1 && f.isF32(r.Outputs[0]) {
		relu = true
		f.absorb(last, r)
	}
	ins := make([]string, 6)
	copy(ins, n.Inputs)
	ins[4], ins[5] = s, bias
	if bias == "" {
		ins = ins[:5]
	}
	delete(f.g.Values, cast.Outputs[0])
	f.removed[cast] = true
	if mul != last {
		delete(f.g.Values, mul.Outputs[0])
		f.removed[mul] = true
	}
	delete(f.g.Values, n.Outputs[0])
	n.Outputs[0] = last.Outputs[0]
	f.removed[last] = true
	n.Domain, n.OpType, n.Inputs = EwDomain, ConvIntegerToFloat, ins
	if relu {
		n.Fused = &Fusion{Act: "Relu"}
	}
}

// channelVec reports whether value v is float32 of m elements whose
// known shape, broadcast against a result of rank rank (batch, channels,
// spatial dims), gives one value to each channel: [m, 1, ...] or
// [1, m, 1, ...], with a 1 for each spatial dim.
func (f *fuser) channelVec(v string, m, rank int) bool {
	vi := f.g.Values[v]
	if t := f.g.Const(v); t != nil {
		vi = &ValueInfo{DType: t.DType, Shape: t.Shape, RankKnown: true}
	}
	if vi == nil || vi.DType != payload.Float32 || !vi.RankKnown {
		return false
	}
	r := len(vi.Shape)
	// The channel axis of the result is axis 1; aligned from the right,
	// it is axis r-(rank-1) of v.
	ch := r - (rank - 1)
	if r > rank || ch < 0 {
		return false
	}
	for i, d := range vi.Shape {
		if (i == ch && d != m) || (i != ch && d != 1) {
			return false
		}
	}
	return true
}
