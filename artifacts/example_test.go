package artifacts_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

func ExampleOpen() {
	// Write a small model: y = Relu(x).
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Name:    "relu",
		Inputs:  []onnxbuild.Value{{Name: "x", DType: payload.Float32, Shape: []int64{-1, 4}, DimParams: []string{"batch"}}},
		Outputs: []onnxbuild.Value{{Name: "y", DType: payload.Float32, Shape: []int64{-1, 4}, DimParams: []string{"batch"}}},
		Nodes:   []onnxbuild.Node{{Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	dir, err := os.MkdirTemp("", "lintel-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "relu.onnx")
	if err := os.WriteFile(path, m.Encode(), 0o644); err != nil {
		log.Fatal(err)
	}

	a, err := artifacts.Open(path, artifacts.WithLimits(artifacts.Limits{MaxNodes: 1000}))
	if err != nil {
		log.Fatal(err)
	}
	g := a.Graph()
	fmt.Println(a.Format(), "opset", g.Opset)
	for _, in := range g.Inputs {
		fmt.Println("input", in.Name, in.DType, in.Shape, in.DimParams)
	}
	for _, n := range g.Nodes {
		fmt.Println("node", n.OpType, n.Inputs, "->", n.Outputs)
	}
	// Output:
	// onnx opset 17
	// input x float32 [-1 4] [batch ]
	// node Relu [x] -> [y]
}
