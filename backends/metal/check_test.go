package metal

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

func TestCheckListsEveryRefusedNode(t *testing.T) {
	m := onnxbuild.Model{Opset: 13, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 2, 4, 4)},
		Outputs: []onnxbuild.Value{{Name: "y", DType: payload.Float32, NoShape: true}},
		Nodes: []onnxbuild.Node{
			{Name: "prod", Op: "ReduceProd", Inputs: []string{"x"}, Outputs: []string{"p"}},
			{Name: "relu", Op: "Relu", Inputs: []string{"p"}, Outputs: []string{"r"}},
			{Name: "tile", Op: "Tile", Inputs: []string{"r", "reps"}, Outputs: []string{"y"}},
		},
		Initializers: []onnxbuild.Tensor{
			onnxbuild.TensorOf("pads", []int64{8}, []int64{0, 0, 1, 1, 0, 0, 1, 1}),
			onnxbuild.TensorOf("reps", []int64{4}, []int64{1, 1, 2, 2}),
		},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "check")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	issues := Check(art, compute.Options{})
	if len(issues) != 2 || issues[0].Node != "prod" || issues[1].Node != "tile" {
		t.Fatalf("Check: got %+v, want issues for nodes prod and tile", issues)
	}
	for _, is := range issues {
		if !errors.Is(is.Err, compute.ErrUnsupported) {
			t.Fatalf("%s: got %v, want compute.ErrUnsupported", is.Node, is.Err)
		}
	}
	if len(SupportedOps()) == 0 {
		t.Fatal("SupportedOps: got none, want the ops the kernels run")
	}
}
