package model

import (
	"strconv"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// FuseIntegerScale rewrites the tail that dynamic quantization writes
// after each integer product, MatMulInteger → Cast(to float) → Mul by
// the scales' product s → optional Add of a constant float32 bias of one
// value a column, into ONNX Runtime's com.microsoft
// MatMulIntegerToFloat(A, B, a_scale, b_scale, A's and B's zero points,
// bias), as ONNX Runtime's MatMulIntegerToFloat fusion does. s is
// Mul(a_scale, b_scale) of a float32 scalar and a float32 scalar or
// vector of one value a column (the Mul goes too when nothing else reads
// it), or else a float32 scalar (a_scale s, b_scale 1). The kernel
// writes float32(product)·(a_scale·b_scale[j]) + bias[j], the unfused
// nodes' values bit for bit (the same float32 product of the scales, and
// the add not fused into the multiply). Only values used by nothing else
// and not graph outputs are absorbed. Likewise ConvInteger's tail, with
// a bias of one value an output channel and a Relu after, becomes one
// node of EwDomain (see ConvIntegerToFloat). g must be sorted, and typed
// by InferTypes.
func FuseIntegerScale(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	f := newFuser(g)
	var one string
	for _, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		if !f.removed[n] && isDefaultDomain(n.Domain) && n.OpType == "ConvInteger" {
			f.fuseConvIntegerScale(n)
			continue
		}
		if f.removed[n] || !isDefaultDomain(n.Domain) || n.OpType != "MatMulInteger" || len(n.Outputs) != 1 || len(n.Inputs) < 2 {
			continue
		}
		cast := f.only(n.Outputs[0])
		if cast == nil || cast.OpType != "Cast" || !f.isF32(cast.Outputs[0]) {
			continue
		}
		mul := f.only(cast.Outputs[0])
		if mul == nil || mul.OpType != "Mul" || len(mul.Inputs) != 2 || !f.isF32(mul.Outputs[0]) {
			continue
		}
		s := otherInput(mul, cast.Outputs[0])
		if s == "" {
			continue
		}
		as, bs, sm := f.scaleFactors(s, n.Inputs[1], cast.Outputs[0])
		if as == "" {
			continue
		}
		bias, last := "", mul
		if add := f.only(mul.Outputs[0]); add != nil && add.OpType == "Add" && len(add.Inputs) == 2 && f.isF32(add.Outputs[0]) {
			if b := otherInput(add, mul.Outputs[0]); b != "" && f.columnBias(b, n.Inputs[1]) {
				bias, last = b, add
			}
		}
		if bs == "" {
			if one == "" {
				one = f.newConst("integer_scale_one", []float32{1})
			}
			bs = one
		}
		if sm != nil {
			delete(g.Values, s)
			f.removed[sm] = true
		}
		za, zb := "", ""
		if len(n.Inputs) > 2 {
			za = n.Inputs[2]
		}
		if len(n.Inputs) > 3 {
			zb = n.Inputs[3]
		}
		ins := []string{n.Inputs[0], n.Inputs[1], as, bs, za, zb, bias}
		for len(ins) > 4 && ins[len(ins)-1] == "" {
			ins = ins[:len(ins)-1]
		}
		delete(g.Values, n.Outputs[0])
		delete(g.Values, cast.Outputs[0])
		f.removed[cast] = true
		if last != mul {
			delete(g.Values, mul.Outputs[0])
			f.removed[mul] = true
		}
		n.Domain, n.OpType, n.Inputs, n.Attrs = MSDomain, "MatMulIntegerToFloat", ins, nil
		n.Outputs[0] = last.Outputs[0]
		f.removed[last] = true
	}
	if len(f.removed) == 0 {
		return nil
	}
	f.rebuild(nil)
	// The scales may come from nodes after the product's place: sort
	// again so every input is produced before it is read.
	return Sort(g)
}

// scalarF32 reports whether value v is float32 of one element, of a
// known rank no greater than value x's: multiplying x by it keeps x's
// shape.
func (f *fuser) scalarF32(v, x string) bool {
	vx := f.g.Values[x]
	if vx == nil || !vx.RankKnown {
		return false
	}
	if t := f.g.Const(v); t != nil {
		return t.DType == payload.Float32 && t.NumElems() == 1 && len(t.Shape) <= len(vx.Shape)
	}
	vi := f.g.Values[v]
	if vi == nil || vi.DType != payload.Float32 || !vi.RankKnown || len(vi.Shape) > len(vx.Shape) {
		return false
	}
	for _, d := range vi.Shape {
		if d != 1 {
			return false
		}
	}
	return true
}

// scaleFactors splits the scale s of a product by the matrix b (result x
// before the scale) into a_scale and b_scale: the inputs of s's producer
// sm, a Mul of a float32 scalar and a float32 scalar or column vector
// that only the scale Mul reads (sm returned, to remove), or s itself and
// "" (b_scale 1) when s is a float32 scalar; "" when neither.
func (f *fuser) scaleFactors(s, b, x string) (as, bs string, sm *Node) {
	if p := f.producer(s); p != nil && p.OpType == "Mul" && isDefaultDomain(p.Domain) && len(p.Inputs) == 2 && f.only(s) != nil {
		for _, ord := range [2][2]int{{0, 1}, {1, 0}} {
			a, c := p.Inputs[ord[0]], p.Inputs[ord[1]]
			if a != "" && c != "" && f.scalarF32(a, x) && (f.scalarF32(c, x) || f.columnVec(c, b)) {
				return a, c, p
			}
		}
	}
	if f.scalarF32(s, x) {
		return s, "", nil
	}
	return "", "", nil
}

// producer returns the live node that writes value v, or nil.
func (f *fuser) producer(v string) *Node {
	for _, n := range f.g.Nodes {
		if n != nil && !f.removed[n] && len(n.Outputs) == 1 && n.Outputs[0] == v {
			return n
		}
	}
	return nil
}

// columnVec reports whether value v is float32 of shape [n], n the
// columns of the 2-D matrix b, both shapes known.
func (f *fuser) columnVec(v, b string) bool {
	vi, vb := f.g.Values[v], f.g.Values[b]
	if t := f.g.Const(v); t != nil {
		vi = &ValueInfo{DType: t.DType, Shape: t.Shape, RankKnown: true}
	}
	if vi == nil || vi.DType != payload.Float32 || !vi.RankKnown || len(vi.Shape) != 1 || vb == nil || !vb.RankKnown || len(vb.Shape) != 2 {
		return false
	}
	return vb.Shape[1] >= 1 && vi.Shape[0] == vb.Shape[1]
}

// columnBias reports whether v is a constant float32 vector of one value
// for each column of the 2-D matrix b, whose shape is known: adding it to
// the product keeps the product's shape.
func (f *fuser) columnBias(v, b string) bool {
	return f.g.Const(v) != nil && f.columnVec(v, b)
}

// newConst adds a float32 constant of shape [] (one value) or [n] and
// returns its name, one not yet in the graph.
func (f *fuser) newConst(what string, v []float32) string {
	for i := 0; ; i++ {
		name := what + "_" + strconv.Itoa(i)
		if f.g.Initializers[name] != nil || f.g.Values[name] != nil || f.users[name] != nil {
			continue
		}
		shape := []int{}
		if len(v) != 1 {
			shape = []int{len(v)}
		}
		f.g.Initializers[name] = &Tensor{Name: name, DType: payload.Float32, Shape: shape, Raw: AlignedBytes(payload.AsBytes(v))}
		f.g.Values[name] = &ValueInfo{Name: name, DType: payload.Float32, Shape: shape, RankKnown: true}
		return name
	}
}
