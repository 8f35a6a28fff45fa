package backends_test

import (
	"errors"
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// reluModel returns an ONNX model computing y = Relu(x) for x of shape [N, 3].
func reluModel() []byte {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 3)},
		Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	return m.Encode()
}

// Load a model on the backend the build tags chose and run it on one
// input and on a batch.
func Example() {
	type T = payload.Tensor[float32]
	art, err := artifacts.FromBytes(reluModel(), "relu.onnx")
	if err != nil {
		panic(err)
	}
	be := backends.New[T, T](compute.Options{Threads: 1})
	m, err := be.LoadModel(art)
	if err != nil {
		panic(err)
	}
	if err := m.Init(); err != nil {
		panic(err)
	}
	defer m.Close()

	in := T{Shape: []int{1, 3}, Data: []float32{-1, 0.5, 2}}
	var out T
	if err := m.InferOne(&in, &out); err != nil {
		panic(err)
	}
	fmt.Println(out.Shape, out.Data)

	ins := []T{in, {Shape: []int{1, 3}, Data: []float32{3, -3, 1}}}
	outs := make([]T, len(ins))
	if err := m.InferBatch(batch.Of(ins), outs); err != nil {
		panic(err)
	}
	fmt.Println(outs[1].Data, m.Metadata().Inputs[0].Shape)
	// Output:
	// [1 3] [0 0.5 2]
	// [3 0 1] [-1 3]
}

// Check lists every node the chosen backend cannot run, where LoadModel
// stops at the first.
func ExampleCheck() {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 3)},
		Nodes: []onnxbuild.Node{
			{Name: "a", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"h"}},
			{Name: "b", Op: "NoSuchOp", Inputs: []string{"h"}, Outputs: []string{"y"}},
		},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "model.onnx")
	if err != nil {
		panic(err)
	}
	for _, is := range backends.Check(art, compute.Options{}) {
		fmt.Println(is.Node, is.Op, errors.Is(is.Err, compute.ErrUnsupported))
	}
	fmt.Println(len(backends.SupportedOps()) > 100)
	// Output:
	// b NoSuchOp true
	// true
}
