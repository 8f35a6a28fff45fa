package model

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// TestFuseElementwise checks which chains FuseElementwise replaces with
// one program node, and which it must leave.
func TestFuseElementwise(t *testing.T) {
	sc := func(name string, v float32) *Tensor { return NewTensor(name, []int{}, []float32{v}) }
	consts := []*Tensor{sc("three", 3), sc("zero", 0), sc("six", 6), sc("half", 0.5),
		NewTensor("vec", []int{4}, []float32{1, 2, 3, 4}), NewTensor("big", []int{1, 1, 1}, []float32{2}),
		NewTensor("i3", []int{}, []int64{3})}
	x := []ValueInfo{vin("x", f32, 2, 4)}
	hswDivMul := []*Node{
		nd("Add", []string{"x", "three"}, []string{"a"}),
		nd("Clip", []string{"a", "zero", "six"}, []string{"c"}),
		nd("Div", []string{"c", "six"}, []string{"d"}),
		nd("Mul", []string{"x", "d"}, []string{"y"}),
	}
	cases := []struct {
		name    string
		inputs  []ValueInfo
		nodes   []*Node
		extra   []string // more graph outputs
		wantOps []string
		want    *EwProgram
	}{
		{name: "hardswish add clip div mul", nodes: hswDivMul, wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 1, Steps: []EwStep{
			{Op: "Add", X: 0, Y: -1, K: []float32{3}}, {Op: "Clip", X: 1, Y: -1, K: []float32{0, 6}},
			{Op: "Div", X: 2, Y: -1, K: []float32{6}}, {Op: "Mul", X: 0, Y: 3}}}},
		{name: "silu", nodes: []*Node{nd("Sigmoid", []string{"x"}, []string{"s"}), nd("Mul", []string{"s", "x"}, []string{"y"})},
			wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 1, Steps: []EwStep{
				{Op: "Sigmoid", X: 0, Y: -1, K: []float32{0, 0}}, {Op: "Mul", X: 1, Y: 0}}}},
		{name: "constant first", nodes: []*Node{nd("Sub", []string{"half", "x"}, []string{"s"}), nd("Relu", []string{"s"}, []string{"y"})},
			wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 1, Steps: []EwStep{
				{Op: "Sub", X: 0, Y: -1, ConstFirst: true, K: []float32{0.5}}, {Op: "Relu", X: 1, Y: -1, K: []float32{0, 0}}}}},
		{name: "second input of a known shape", inputs: []ValueInfo{vin("x", f32, 2, 4), vin("z", f32, 2, 4)},
			nodes:   []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Add", []string{"z", "e"}, []string{"y"})},
			wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 2, Steps: []EwStep{
				{Op: "Exp", X: 0, Y: -1, K: []float32{0, 0}}, {Op: "Add", X: 1, Y: 2}}}},
		{name: "second input of an unknown dim", inputs: []ValueInfo{vin("x", f32, -1, 4), vin("z", f32, -1, 4)},
			nodes:   []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Add", []string{"z", "e"}, []string{"y"})},
			wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 2, Steps: []EwStep{
				{Op: "Exp", X: 0, Y: -1, K: []float32{0, 0}}, {Op: "Add", X: 1, Y: 2}}}},
		{name: "one op alone", nodes: []*Node{nd("Relu", []string{"x"}, []string{"y"})}, wantOps: []string{"Relu"}},
		{name: "used twice", nodes: []*Node{
			nd("Exp", []string{"x"}, []string{"e"}), nd("Neg", []string{"e"}, []string{"n"}),
			nd("Softmax", []string{"e"}, []string{"s"}), nd("Add", []string{"n", "s"}, []string{"y"})},
			wantOps: []string{"Exp", "Softmax", EwOpType}, want: &EwProgram{Inputs: 2, Steps: []EwStep{
				{Op: "Neg", X: 0, Y: -1, K: []float32{0, 0}}, {Op: "Add", X: 2, Y: 1}}}},
		{name: "graph output inside", nodes: []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Neg", []string{"e"}, []string{"y"})},
			extra: []string{"e"}, wantOps: []string{"Exp", "Neg"}},
		{name: "vector constant along the last axis", nodes: []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Add", []string{"e", "vec"}, []string{"y"})},
			wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 2, Steps: []EwStep{
				{Op: "Exp", X: 0, Y: -1, K: []float32{0, 0}}, {Op: "Add", X: 2, Y: 1}}}},
		{name: "vector constant under Pow", nodes: []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Pow", []string{"e", "vec"}, []string{"y"})},
			wantOps: []string{"Exp", "Pow"}},
		{name: "per-channel scale computed (squeeze-excitation)", inputs: []ValueInfo{vin("x", f32, 1, 3, 2, 2), vin("s", f32, 1, 3, 1, 1)},
			nodes:   []*Node{nd("Mul", []string{"x", "s"}, []string{"m"}), nd("Add", []string{"x", "m"}, []string{"y"})},
			wantOps: []string{EwOpType}, want: &EwProgram{Inputs: 2, Steps: []EwStep{
				{Op: "Mul", X: 0, Y: 1}, {Op: "Add", X: 0, Y: 2}}}},
		{name: "broadcast over two runs of axes", inputs: []ValueInfo{vin("x", f32, 1, 3, 2, 2), vin("s", f32, 1, 3, 1, 2)},
			nodes:   []*Node{nd("Mul", []string{"x", "s"}, []string{"m"}), nd("Add", []string{"x", "m"}, []string{"y"})},
			wantOps: []string{EwOpType}},
		{name: "per-channel scale of unknown batch and plane", inputs: []ValueInfo{vin("x", f32, -1, 3, -1, -1), vin("s", f32, -1, 3, 1, 1)},
			nodes:   []*Node{nd("Mul", []string{"x", "s"}, []string{"m"}), nd("Add", []string{"x", "m"}, []string{"y"})},
			wantOps: []string{EwOpType}},
		{name: "operand of a higher rank", inputs: []ValueInfo{vin("x", f32, 3, 4), vin("s", f32, 2, 3, 4)},
			nodes:   []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Add", []string{"e", "s"}, []string{"y"})},
			wantOps: []string{"Exp", "Add"}},
		{name: "broadcast that grows the first input", inputs: []ValueInfo{vin("x", f32, 3, 1, 1), vin("s", f32, 1, 3, 1, 1)},
			nodes:   []*Node{nd("Mul", []string{"x", "s"}, []string{"m"}), nd("Relu", []string{"m"}, []string{"y"})},
			wantOps: []string{"Mul", "Relu"}},
		{name: "scalar of a higher rank", nodes: []*Node{nd("Exp", []string{"x"}, []string{"e"}), nd("Add", []string{"e", "big"}, []string{"y"})},
			wantOps: []string{"Exp", "Add"}},
		{name: "clip bound computed", nodes: []*Node{
			nd("Neg", []string{"x"}, []string{"lo"}), nd("Exp", []string{"x"}, []string{"e"}), nd("Clip", []string{"e", "lo"}, []string{"y"})},
			wantOps: []string{"Neg", "Exp", "Clip"}},
		{name: "int64", inputs: []ValueInfo{vin("x", payload.Int64, 2, 4)},
			nodes:   []*Node{nd("Neg", []string{"x"}, []string{"n"}), nd("Add", []string{"n", "i3"}, []string{"y"})},
			wantOps: []string{"Neg", "Add"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.inputs
			if in == nil {
				in = x
			}
			g := graph(17, in, consts, c.nodes...)
			for _, e := range c.extra {
				g.Outputs = append(g.Outputs, ValueInfo{Name: e})
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes: %v", err)
			}
			if err := FuseElementwise(g); err != nil {
				t.Fatalf("FuseElementwise: %v", err)
			}
			var ops []string
			for _, n := range g.Nodes {
				ops = append(ops, n.OpType)
			}
			if !slices.Equal(ops, c.wantOps) {
				t.Fatalf("ops %v, want %v", ops, c.wantOps)
			}
			if c.want == nil {
				return
			}
			n := g.Nodes[len(g.Nodes)-1]
			if !IsEwNode(n) || n.Outputs[0] != "y" {
				t.Fatalf("last node %s %v, want the program writing y", n.OpType, n.Outputs)
			}
			if !reflect.DeepEqual(n.Fused.Prog, c.want) {
				t.Fatalf("program %+v, want %+v", n.Fused.Prog, c.want)
			}
			if _, _, err := BindNode(n, 1); err != nil {
				t.Fatalf("BindNode: %v", err)
			}
			if err := InferTypes(g); err != nil {
				t.Fatalf("InferTypes after fusing: %v", err)
			}
		})
	}
}

// TestElementwiseFromFile checks that a file cannot define the internal
// node, nor a program that reads registers it does not have.
func TestElementwiseFromFile(t *testing.T) {
	n := &Node{OpType: EwOpType, Domain: EwDomain, Inputs: []string{"x"}, Outputs: []string{"y"}}
	_, _, err := BindNode(n, 1)
	wantKind(t, err, errs.Unsupported)
	n.Fused = &Fusion{Prog: &EwProgram{Inputs: 1, Steps: []EwStep{{Op: "Add", X: 0, Y: 1}}}}
	_, _, err = BindNode(n, 1)
	wantKind(t, err, errs.InvalidArtifact)
	n.Fused.Prog.Steps[0] = EwStep{Op: "Frobnicate", X: 0, Y: -1}
	_, _, err = BindNode(n, 1)
	wantKind(t, err, errs.InvalidArtifact)
}

// TestEwSpan checks which input shapes broadcast to an output along one
// run of axes, and the inner and span they read with.
func TestEwSpan(t *testing.T) {
	tests := []struct {
		in, out     []int
		inner, span int
		ok          bool
	}{
		{[]int{1, 8, 1, 1}, []int{2, 8, 5, 7}, 35, 8, true},
		{[]int{8, 1, 1}, []int{2, 8, 5, 7}, 35, 8, true},
		{[]int{7}, []int{2, 8, 5, 7}, 1, 7, true},
		{[]int{5, 7}, []int{2, 8, 5, 7}, 1, 35, true},
		{[]int{5, 1}, []int{2, 8, 5, 7}, 7, 5, true},
		{[]int{2, 1, 1, 1}, []int{2, 8, 5, 7}, 280, 2, true},
		{[]int{1}, []int{2, 8}, 1, 1, true},
		{[]int{}, []int{2, 8}, 1, 1, true},
		{[]int{2, 8}, []int{2, 8}, 0, 0, false},             // the output's own shape
		{[]int{1, 8, 1, 7}, []int{2, 8, 5, 7}, 0, 0, false}, // two runs
		{[]int{1, 4, 1, 1}, []int{2, 8, 5, 7}, 0, 0, false}, // a dim that does not match
		{[]int{1, 2, 8}, []int{2, 8}, 0, 0, false},          // more dims than the output
	}
	for _, tt := range tests {
		inner, span, ok := EwSpan(tt.in, tt.out)
		if inner != tt.inner || span != tt.span || ok != tt.ok {
			t.Errorf("EwSpan(%v, %v) = %d, %d, %v; want %d, %d, %v", tt.in, tt.out, inner, span, ok, tt.inner, tt.span, tt.ok)
		}
	}
}
