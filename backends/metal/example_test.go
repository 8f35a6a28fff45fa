package metal_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/metal"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// sinModel returns an ONNX model computing y = Sin(Relu(x)) for x of
// shape [1, 3]: the Metal kernels run Relu but not Sin.
func sinModel() []byte {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 3)},
		Nodes: []onnxbuild.Node{
			{Name: "act", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"h"}},
			{Name: "wave", Op: "Sin", Inputs: []string{"h"}, Outputs: []string{"y"}},
		},
	}}
	return m.Encode()
}

// Check says, on any machine and without a GPU, which nodes of a model the
// Metal backend would refuse.
func ExampleCheck() {
	art, err := artifacts.FromBytes(sinModel(), "sin.onnx")
	if err != nil {
		panic(err)
	}
	for _, is := range metal.Check(art, compute.Options{}) {
		fmt.Println(is.Node, is.Op, errors.Is(is.Err, compute.ErrUnsupported))
	}
	ops := metal.SupportedOps()
	fmt.Println(slices.Contains(ops, "Relu"), slices.Contains(ops, "Sin"))
	// Output:
	// wave Sin true
	// true false
}

// Load and run a model on an Apple GPU. This builds everywhere; outside
// macOS, or without -tags metal, LoadModel fails with
// compute.ErrResourceUnavailable, so the example has no fixed output and
// is compiled, not run, by go test.
func ExampleNew() {
	type T = payload.Tensor[float32]
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 3)},
		Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "relu.onnx")
	if err != nil {
		panic(err)
	}
	model, err := metal.New[T, T](compute.Options{}).LoadModel(art)
	if errors.Is(err, compute.ErrResourceUnavailable) {
		fmt.Println("no Metal device here:", err)
		return
	}
	if err != nil {
		panic(err)
	}
	if err := model.Init(); err != nil {
		panic(err)
	}
	defer model.Close()
	in := T{Shape: []int{1, 3}, Data: []float32{-1, 0.5, 2}}
	var out T
	if err := model.InferOne(&in, &out); err != nil {
		panic(err)
	}
	fmt.Println(out.Shape, out.Data) // [1 3] [0 0.5 2]
}
