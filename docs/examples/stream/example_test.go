package stream_test

import (
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/docs/examples/stream"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// A running sum over chunks of 4 values: each call adds its chunk to the
// state the call before returned.
func Example() {
	sum := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 4), onnxbuild.Input("state", payload.Float32, 1, 4)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("stateN", payload.Float32, 1, 4)},
		Nodes:   []onnxbuild.Node{{Op: "Add", Inputs: []string{"x", "state"}, Outputs: []string{"stateN"}}},
	}}
	art, err := artifacts.FromBytes(sum.Encode(), "sum")
	if err != nil {
		panic(err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err == nil {
		err = m.Init()
	}
	if err != nil {
		panic(err)
	}
	defer m.Close()

	chunk := payload.NewTensor[float32](1, 4)
	s := stream.New(m, []payload.Dynamic{
		payload.DynamicOf("x", chunk),
		payload.DynamicOf("state", payload.NewTensor[float32](1, 4)), // zeros
	}, []stream.State{{In: "state", Out: "stateN"}})
	for k := range 3 {
		copy(chunk.Data, []float32{1, 2, 3, float32(k)}) // the next chunk
		out, err := s.Step()
		if err != nil {
			panic(err)
		}
		total, _ := payload.Typed[float32](*out.Get("stateN"))
		fmt.Println(total.Data)
	}
	// Output:
	// [1 2 3 0]
	// [2 4 6 1]
	// [3 6 9 3]
}
