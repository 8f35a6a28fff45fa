package model

import "github.com/lintel-ml/lintel/payload"

// fuseMSGelu folds ONNX Runtime's Gelu, BiasGelu or FastGelu after MatMul
// n into it, as ONNX Runtime's MatMul and activation fusions would: the
// bias (a constant vector along the last dim, when B is a constant
// matrix) as Fusion.Bias, the activation as a one-step program (Gelu,
// with Tanh for FastGelu). The unfused kernels add the bias and then run
// the same float32 loop, so the result keeps its bits. It reports
// whether it folded; n then takes the activation's output.
func (f *fuser) fuseMSGelu(n *Node) bool {
	x := n.Outputs[0]
	us := f.users[x]
	if len(us) != 1 || us[0] == nil || f.removed[us[0]] {
		return false
	}
	a := us[0]
	if a.Domain != MSDomain || len(a.Outputs) != 1 || a.Outputs[0] == "" || !f.isF32(a.Outputs[0]) || len(a.Inputs) == 0 || a.Inputs[0] != x {
		return false
	}
	tanh := false
	switch a.OpType {
	case "Gelu", "BiasGelu":
	case "FastGelu":
		tanh = true
	default:
		return false
	}
	if n.Fused != nil && (n.Fused.Act != "" || n.Fused.Prog != nil) {
		return false
	}
	bias := ""
	if len(a.Inputs) > 1 {
		bias = a.Inputs[1]
	}
	if bias != "" && !f.biasFits(n, bias) {
		return false
	}
	if bias != "" {
		n.Inputs = append(n.Inputs, bias)
		n.Fused = &Fusion{Bias: true}
	} else if n.Fused == nil {
		n.Fused = &Fusion{}
	}
	n.Fused.Prog = &EwProgram{Inputs: 1, Steps: []EwStep{{Op: "Gelu", X: 0, Y: -1, Tanh: tanh, K: []float32{0, 0}}}}
	f.absorb(n, a)
	return true
}

// biasFits reports whether constant b can be MatMul n's fused bias: n
// has no bias yet, B is a constant float32 matrix and b a float32 vector
// as long as the product's known last dim.
func (f *fuser) biasFits(n *Node, b string) bool {
	if n.Fused != nil || len(n.Inputs) != 2 {
		return false
	}
	if w := f.g.Const(n.Inputs[1]); w == nil || len(w.Shape) != 2 || w.DType != payload.Float32 {
		return false
	}
	out := f.g.Values[n.Outputs[0]]
	if out == nil || !out.RankKnown || len(out.Shape) < 2 || out.Shape[len(out.Shape)-1] < 1 {
		return false
	}
	cols := out.Shape[len(out.Shape)-1]
	t := f.g.Const(b)
	if t == nil || t.DType != payload.Float32 || len(t.Shape) != 1 || t.Shape[0] != cols {
		return false
	}
	_, err := View[float32](t)
	return err == nil
}
