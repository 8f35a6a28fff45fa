package model

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// msNode puts n in ONNX Runtime's contrib domain.
func msNode(n *Node) *Node {
	n.Domain = MSDomain
	return n
}

// geluProg is the one-step Gelu program fuseMSGelu writes.
func geluProg(tanh bool) *EwProgram {
	return &EwProgram{Inputs: 1, Steps: []EwStep{{Op: "Gelu", X: 0, Y: -1, Tanh: tanh, K: []float32{0, 0}}}}
}

// TestFuseActivations checks which tails FuseActivations folds and which
// it leaves.
func TestFuseActivations(t *testing.T) {
	w := NewTensor("w", []int{4, 3}, make([]float32, 12))
	w64 := NewTensor("w64", []int{4, 3}, make([]float64, 12))
	b := floats("b", 1, 2, 3)
	bCol := NewTensor("bcol", []int{3, 1}, []float32{1, 2, 3})
	sc := func(name string, v float32) *Tensor { return NewTensor(name, []int{}, []float32{v}) }
	consts := []*Tensor{w, w64, b, bCol, sc("three", 3), sc("zero", 0), sc("six", 6), sc("five", 5)}
	x := []ValueInfo{vin("x", f32, 2, 4)}
	hsw := func(div string) []*Node {
		return []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}),
			nd("Add", []string{"m", "three"}, []string{"a"}),
			nd("Clip", []string{"a", "zero", "six"}, []string{"c"}),
			nd("Mul", []string{"c", "m"}, []string{"p"}),
			nd("Div", []string{"p", div}, []string{"y"}),
		}
	}
	cases := []struct {
		name    string
		opset   int64
		inputs  []ValueInfo
		nodes   []*Node
		extra   []string // more graph outputs
		wantOps []string
		want    *Fusion
	}{
		{name: "relu", nodes: []*Node{nd("Gemm", []string{"x", "w"}, []string{"g"}), nd("Relu", []string{"g"}, []string{"y"})},
			wantOps: []string{"Gemm"}, want: &Fusion{Act: ActRelu}},
		{name: "bias and clip", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), nd("Add", []string{"b", "m"}, []string{"a"}),
			nd("Clip", []string{"a", "zero", "six"}, []string{"y"})},
			wantOps: []string{"MatMul"}, want: &Fusion{Bias: true, Act: ActClip, Params: []float32{0, 6}}},
		{name: "clip attributes before opset 11", opset: 9, nodes: []*Node{
			nd("Gemm", []string{"x", "w", "b"}, []string{"g"}), nd("Clip", []string{"g"}, []string{"y"}, aF("min", -1))},
			wantOps: []string{"Gemm"}, want: &Fusion{Act: ActClip, Params: []float32{-1, maxFloat32}}},
		{name: "hardsigmoid", nodes: []*Node{
			nd("Gemm", []string{"x", "w"}, []string{"g"}), nd("HardSigmoid", []string{"g"}, []string{"y"}, aF("alpha", 0.25))},
			wantOps: []string{"Gemm"}, want: &Fusion{Act: ActHardSigmoid, Params: []float32{0.25, 0.5}}},
		{name: "hardswish spelled out", nodes: hsw("six"), wantOps: []string{"MatMul"}, want: &Fusion{Act: ActHardSwishDiv6}},
		{name: "hardswish divided by 5 as a program", nodes: hsw("five"), wantOps: []string{"MatMul"}, want: &Fusion{Prog: &EwProgram{Inputs: 1, Steps: []EwStep{
			{Op: "Add", X: 0, Y: -1, K: []float32{3}}, {Op: "Clip", X: 1, Y: -1, K: []float32{0, 6}},
			{Op: "Mul", X: 2, Y: 0}, {Op: "Div", X: 3, Y: -1, K: []float32{5}}}}}},
		{name: "bias along rows", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), nd("Add", []string{"m", "bcol"}, []string{"y"})},
			inputs: []ValueInfo{vin("x", f32, 3, 4)}, wantOps: []string{"MatMul", "Add"}},
		{name: "used twice", nodes: []*Node{
			nd("Gemm", []string{"x", "w"}, []string{"g"}), nd("Relu", []string{"g"}, []string{"r"}),
			nd("Add", []string{"g", "r"}, []string{"y"})},
			wantOps: []string{"Gemm"}, want: &Fusion{Prog: &EwProgram{Inputs: 1, Steps: []EwStep{
				{Op: "Relu", X: 0, Y: -1, K: []float32{0, 0}}, {Op: "Add", X: 0, Y: 1}}}}},
		{name: "graph output", nodes: []*Node{nd("Gemm", []string{"x", "w"}, []string{"g"}), nd("Relu", []string{"g"}, []string{"y"})},
			extra: []string{"g"}, wantOps: []string{"Gemm", "Relu"}},
		{name: "clip bound computed", nodes: []*Node{
			nd("Gemm", []string{"x", "w"}, []string{"g"}), nd("Relu", []string{"x"}, []string{"lo"}),
			nd("Clip", []string{"g", "lo"}, []string{"y"})},
			wantOps: []string{"Gemm", "Relu", "Clip"}},
		{name: "float64", inputs: []ValueInfo{vin("x", payload.Float64, 2, 4)},
			nodes:   []*Node{nd("Gemm", []string{"x", "w64"}, []string{"g"}), nd("Relu", []string{"g"}, []string{"y"})},
			wantOps: []string{"Gemm", "Relu"}},
		{name: "BiasGelu", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), msNode(nd("BiasGelu", []string{"m", "b"}, []string{"y"}))},
			wantOps: []string{"MatMul"}, want: &Fusion{Bias: true, Prog: geluProg(false)}},
		{name: "FastGelu with bias", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), msNode(nd("FastGelu", []string{"m", "b"}, []string{"y"}))},
			wantOps: []string{"MatMul"}, want: &Fusion{Bias: true, Prog: geluProg(true)}},
		{name: "Gelu after a bias Add", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), nd("Add", []string{"m", "b"}, []string{"a"}),
			msNode(nd("Gelu", []string{"a"}, []string{"y"}))},
			wantOps: []string{"MatMul"}, want: &Fusion{Bias: true, Prog: geluProg(false)}},
		{name: "BiasGelu with a computed bias", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), nd("Relu", []string{"b"}, []string{"rb"}),
			msNode(nd("BiasGelu", []string{"m", "rb"}, []string{"y"}))},
			wantOps: []string{"MatMul", "Relu", "BiasGelu"}},
		{name: "BiasGelu whose bias is the product", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), msNode(nd("BiasGelu", []string{"b", "m"}, []string{"y"}))},
			inputs: []ValueInfo{vin("x", f32, 4)}, wantOps: []string{"MatMul", "BiasGelu"}},
		{name: "QuickGelu", nodes: []*Node{
			nd("MatMul", []string{"x", "w"}, []string{"m"}), msNode(nd("QuickGelu", []string{"m"}, []string{"y"}))},
			wantOps: []string{"MatMul", "QuickGelu"}},
		{name: "other op", nodes: []*Node{nd("Relu", []string{"x"}, []string{"g"}), nd("Relu", []string{"g"}, []string{"y"})},
			wantOps: []string{"Relu", "Relu"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opset := c.opset
			if opset == 0 {
				opset = 17
			}
			in := c.inputs
			if in == nil {
				in = x
			}
			g := graph(opset, in, consts, c.nodes...)
			for _, e := range c.extra {
				g.Outputs = append(g.Outputs, ValueInfo{Name: e})
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			if err := FuseActivations(g); err != nil {
				t.Fatalf("FuseActivations: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !slices.Equal(ops, c.wantOps) {
				t.Fatalf("ops %v, want %v", ops, c.wantOps)
			}
			got := g.Nodes[0].Fused
			if (got == nil) != (c.want == nil) {
				t.Fatalf("fusion %+v, want %+v", got, c.want)
			}
			if got != nil {
				if got.Bias != c.want.Bias || got.Act != c.want.Act || !slices.Equal(got.Params, c.want.Params) || !reflect.DeepEqual(got.Prog, c.want.Prog) {
					t.Fatalf("fusion %+v, want %+v", got, c.want)
				}
				if last := g.Nodes[len(g.Nodes)-1]; last.Outputs[0] != "y" {
					t.Fatalf("fused node writes %q, want y", last.Outputs[0])
				}
			}
		})
	}
}
