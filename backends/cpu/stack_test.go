package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

func TestStackingAnalysis(t *testing.T) {
	x := onnxbuild.Input("x", payload.Float32, -1, 4)
	y := onnxbuild.Value{Name: "y", DType: payload.Float32, NoShape: true}
	w := onnxbuild.TensorOf("w", []int64{4, 3}, make([]float32, 12))
	cases := []struct {
		name  string
		nodes []onnxbuild.Node
		inits []onnxbuild.Tensor
		in    onnxbuild.Value
		want  bool
	}{
		{"matmul relu", []onnxbuild.Node{
			{Op: "MatMul", Inputs: []string{"x", "w"}, Outputs: []string{"h"}},
			{Op: "Relu", Inputs: []string{"h"}, Outputs: []string{"y"}},
		}, []onnxbuild.Tensor{w}, x, true},
		{"softmax last axis", []onnxbuild.Node{
			{Op: "Softmax", Inputs: []string{"x"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", -1)}},
		}, nil, x, true},
		{"softmax over the batch", []onnxbuild.Node{
			{Op: "Softmax", Inputs: []string{"x"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", 0)}},
		}, nil, x, false},
		{"reduce over the batch", []onnxbuild.Node{
			{Op: "ReduceSum", Inputs: []string{"x", "axes"}, Outputs: []string{"y"}},
		}, []onnxbuild.Tensor{onnxbuild.TensorOf("axes", []int64{1}, []int64{0})}, x, false},
		{"fixed batch", []onnxbuild.Node{
			{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}},
		}, nil, onnxbuild.Input("x", payload.Float32, 1, 4), false},
		{"transpose keeps axis 0", []onnxbuild.Node{
			{Op: "Transpose", Inputs: []string{"x"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInts("perm", 0, 1)}},
		}, nil, x, true},
		{"expand keeps axis 0", []onnxbuild.Node{
			{Op: "Expand", Inputs: []string{"x", "shape"}, Outputs: []string{"y"}},
		}, []onnxbuild.Tensor{onnxbuild.TensorOf("shape", []int64{2}, []int64{1, 4})}, x, true},
		{"expand sets axis 0", []onnxbuild.Node{
			{Op: "Expand", Inputs: []string{"x", "shape"}, Outputs: []string{"y"}},
		}, []onnxbuild.Tensor{onnxbuild.TensorOf("shape", []int64{2}, []int64{3, 4})}, x, false},
		{"transpose moves axis 0", []onnxbuild.Node{
			{Op: "Transpose", Inputs: []string{"x"}, Outputs: []string{"y"}},
		}, nil, x, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onnxbuild.Model{Opset: 13, Graph: onnxbuild.Graph{
				Inputs: []onnxbuild.Value{c.in}, Outputs: []onnxbuild.Value{y}, Nodes: c.nodes, Initializers: c.inits,
			}}
			art, err := artifacts.FromBytes(m.Encode(), c.name)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := New[payload.Tensor[float32], payload.Tensor[float32]](compute.Options{}).LoadModel(art)
			if err != nil {
				t.Fatal(err)
			}
			if got := mod.prog.stackable; got != c.want {
				t.Fatalf("stackable = %v, want %v", got, c.want)
			}
		})
	}
}
