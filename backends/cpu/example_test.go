package cpu_test

import (
	"errors"
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// denseModel returns an ONNX model computing y = Relu(x·W + b) for x of
// shape [N, 2], with W = [[1, -1, 0], [0, 1, 2]] and b = [0, 0, 1].
func denseModel() []byte {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 2)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 3)},
		Initializers: []onnxbuild.Tensor{
			onnxbuild.TensorOf("w", []int64{2, 3}, []float32{1, -1, 0, 0, 1, 2}),
			onnxbuild.TensorOf("b", []int64{3}, []float32{0, 0, 1}),
		},
		Nodes: []onnxbuild.Node{
			{Op: "Gemm", Inputs: []string{"x", "w", "b"}, Outputs: []string{"h"}},
			{Op: "Relu", Inputs: []string{"h"}, Outputs: []string{"y"}},
		},
	}}
	return m.Encode()
}

// Load a model on the CPU backend directly (package backends picks it by
// build tags; both give the same types) and run it on one input, then on
// a batch.
func Example() {
	type T = payload.Tensor[float32]
	art, err := artifacts.FromBytes(denseModel(), "dense.onnx")
	if err != nil {
		panic(err)
	}
	// Threads: 2 lets the model split its larger products across a
	// helper goroutine; the results are the same bits as on one thread.
	m, err := cpu.New[T, T](compute.Options{Threads: 2}).LoadModel(art)
	if err != nil {
		panic(err) // an op the backend lacks is refused here, naming the node
	}
	if err := m.Init(); err != nil {
		panic(err)
	}
	defer m.Close() // stops the helper goroutine

	in := T{Shape: []int{1, 2}, Data: []float32{2, 3}}
	var out T
	if err := m.InferOne(&in, &out); err != nil {
		panic(err)
	}
	fmt.Println(out.Shape, out.Data)

	ins := []T{in, {Shape: []int{1, 2}, Data: []float32{-1, 0}}}
	outs := make([]T, len(ins))
	if err := m.InferBatch(batch.Of(ins), outs); err != nil {
		panic(err)
	}
	fmt.Println(outs[0].Data, outs[1].Data)

	bad := T{Shape: []int{1, 5}, Data: make([]float32, 5)}
	err = m.InferOne(&bad, &out)
	fmt.Println(errors.Is(err, compute.ErrShapeMismatch))
	// Output:
	// [1 3] [2 1 7]
	// [2 1 7] [0 1 1]
	// true
}
