package quantize

import (
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// Static mode writes whole QDQ units: the op's output (after the bias
// Add a 2-D MatMul becomes a Gemm with, and after a Relu that alone reads
// it) goes through QuantizeLinear and DequantizeLinear, and the graph
// output keeps its name.
func TestStaticUnits(t *testing.T) {
	r := testmodels.Rand(9)
	w, b := testmodels.Weight(r, "w", 16, 8), testmodels.Weight(r, "b", 8)
	q, dq := "QuantizeLinear", "DequantizeLinear"
	cases := []struct {
		name    string
		x       []int64
		outputs []string
		nodes   []onnxbuild.Node
		want    []string
	}{
		{"matmul add relu", []int64{-1, 16}, []string{"y"}, []onnxbuild.Node{
			testmodels.Node("MatMul", []string{"x", "w"}, "m"), testmodels.Node("Add", []string{"b", "m"}, "a"),
			testmodels.Node("Relu", []string{"a"}, "y")},
			[]string{q, dq, dq, dq, "Gemm", "Relu", q, dq}},
		{"matmul 3-D", []int64{2, -1, 16}, []string{"y"}, []onnxbuild.Node{
			testmodels.Node("MatMul", []string{"x", "w"}, "m"), testmodels.Node("Add", []string{"m", "b"}, "y")},
			[]string{q, dq, dq, "MatMul", q, dq, "Add"}},
		{"matmul output read twice", []int64{-1, 16}, []string{"y", "m"}, []onnxbuild.Node{
			testmodels.Node("MatMul", []string{"x", "w"}, "m"), testmodels.Node("Add", []string{"m", "b"}, "y")},
			[]string{q, dq, dq, "MatMul", q, dq, "Add"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := onnxbuild.Graph{
				Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, c.x...)},
				Initializers: []onnxbuild.Tensor{w, b},
				Nodes:        c.nodes,
			}
			for _, o := range c.outputs {
				out := append(slices.Clone(c.x[:len(c.x)-1]), 8)
				g.Outputs = append(g.Outputs, onnxbuild.Input(o, payload.Float32, out...))
			}
			data := (&onnxbuild.Model{Opset: 17, Graph: g}).Encode()
			shape := make([]int, len(c.x))
			for i, d := range c.x {
				shape[i] = int(d)
				if d < 0 {
					shape[i] = 3
				}
			}
			feeds := []payload.Dynamic{randInput(r, "x", shape...)}
			qm, _, err := Model(data, Options{Mode: Static, Samples: []Sample{feeds}})
			if err != nil {
				t.Fatalf("Model: %v", err)
			}
			art, err := artifacts.FromBytes(qm, "q")
			if err != nil {
				t.Fatal(err)
			}
			var ops []string
			for _, n := range art.Graph().Nodes {
				ops = append(ops, n.OpType)
			}
			if !slices.Equal(ops, c.want) {
				t.Errorf("ops %v, want %v", ops, c.want)
			}
			for i, o := range art.Graph().Outputs {
				if o.Name != c.outputs[i] {
					t.Errorf("output %d is %q, want %q", i, o.Name, c.outputs[i])
				}
			}
			want := runCPUMulti(t, data, feeds)
			if e := relErr(runCPUMulti(t, qm, feeds), want); !(e < 0.05) {
				t.Errorf("relative error %.3g, want < 0.05", e)
			}
		})
	}
}
