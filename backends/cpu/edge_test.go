package cpu_test

import (
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// TestGraphEdges runs graphs whose outputs are inputs, constants or folded
// values, and a graph with no nodes.
func TestGraphEdges(t *testing.T) {
	x := onnxbuild.Input("x", payload.Float32, -1, 3)
	cases := []struct {
		name  string
		outs  []onnxbuild.Value
		nodes []onnxbuild.Node
		inits []onnxbuild.Tensor
		check func(t *testing.T, out payload.Multi)
	}{
		{"input is the output", []onnxbuild.Value{x}, nil, nil, func(t *testing.T, out payload.Multi) {
			v, _ := payload.Typed[float32](out.Tensors[0])
			if v.Data[2] != 3 {
				t.Fatalf("got %v, want the input [1 2 3] back", v.Data)
			}
		}},
		{"folded shape output", []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 3), onnxbuild.Input("k", payload.Int64, 1)},
			[]onnxbuild.Node{
				{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}},
				{Op: "Shape", Inputs: []string{"c"}, Outputs: []string{"k"}},
			}, []onnxbuild.Tensor{onnxbuild.TensorOf("c", []int64{5}, make([]float32, 5))},
			func(t *testing.T, out payload.Multi) {
				k, _ := payload.Typed[int64](out.Tensors[1])
				if len(k.Data) != 1 || k.Data[0] != 5 {
					t.Fatalf("k = %v, want [5]", k.Data)
				}
			}},
		{"same value twice", []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 3), onnxbuild.Input("y", payload.Float32, -1, 3)},
			[]onnxbuild.Node{{Op: "Neg", Inputs: []string{"x"}, Outputs: []string{"y"}}}, nil,
			func(t *testing.T, out payload.Multi) {
				a, _ := payload.Typed[float32](out.Tensors[0])
				b, _ := payload.Typed[float32](out.Tensors[1])
				if a.Data[0] != -1 || b.Data[0] != -1 {
					t.Fatalf("outputs start %v and %v, want -1 in both", a.Data, b.Data)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onnxbuild.Model{Opset: 13, Graph: onnxbuild.Graph{Inputs: []onnxbuild.Value{x}, Outputs: c.outs, Nodes: c.nodes, Initializers: c.inits}}
			art, err := artifacts.FromBytes(m.Encode(), c.name)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := cpu.New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(art)
			if err != nil {
				t.Fatal(err)
			}
			if err := mod.Init(); err != nil {
				t.Fatal(err)
			}
			in := payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{1, 3}, Data: []float32{1, 2, 3}})}}
			var out payload.Multi
			if err := mod.InferOne(&in, &out); err != nil {
				t.Fatal(err)
			}
			c.check(t, out)
			outs := make([]payload.Multi, 2)
			if err := mod.InferBatch(batch.Of([]payload.Multi{in, in}), outs); err != nil {
				t.Fatal(err)
			}
			c.check(t, outs[1])
		})
	}
}
