package cuda

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	ob "github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// Check answers without a GPU, in the stub build too: the shipped and
// generated models load, and a node the kernels lack is named.
func TestCheck(t *testing.T) {
	for name, b := range map[string][]byte{
		"ppocr": models.PPOCRClassifier, "mlp": testmodels.MLP(), "encoder": testmodels.Encoder(), "cnn": testmodels.CNN(),
	} {
		art, err := artifacts.FromBytes(b, name)
		if err != nil {
			t.Fatalf("artifacts.FromBytes: %v", err)
		}
		if issues := Check(art, compute.Options{}); len(issues) != 0 {
			t.Errorf("%s: got issues %v, want none", name, issues)
		}
	}
	m := ob.Model{Opset: 17, Graph: ob.Graph{
		Inputs:       []ob.Value{ob.Input("x", payload.Float32, 2, 8)},
		Outputs:      []ob.Value{{Name: "v", DType: payload.Float32, NoShape: true}, {Name: "i", DType: payload.Int64, NoShape: true}},
		Initializers: []ob.Tensor{ob.TensorOf("k", []int64{1}, []int64{3})},
		Nodes:        []ob.Node{{Name: "top", Op: "TopK", Inputs: []string{"x", "k"}, Outputs: []string{"v", "i"}}},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "topk.onnx")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	issues := Check(art, compute.Options{})
	if len(issues) != 1 || issues[0].Node != "top" || !errors.Is(issues[0].Err, compute.ErrUnsupported) || !strings.Contains(issues[0].Err.Error(), "cuda") {
		t.Fatalf("TopK: got %+v, want one compute.ErrUnsupported issue for node top naming cuda", issues)
	}
	for _, wt := range []payload.DType{payload.Float16, payload.BF16} {
		if issues := Check(art, compute.Options{WeightType: wt}); len(issues) != 1 || issues[0].Node != "top" {
			t.Fatalf("TopK with %s weights: got %+v, want one issue for node top", wt, issues)
		}
	}
	if issues := Check(art, compute.Options{WeightType: payload.Int8}); len(issues) != 1 || !errors.Is(issues[0].Err, compute.ErrUnsupported) || !strings.Contains(issues[0].Err.Error(), "int8") {
		t.Fatalf("weight type int8: got %+v, want one compute.ErrUnsupported issue naming int8", issues)
	}
	ops := SupportedOps()
	if !slices.IsSorted(ops) || !slices.Contains(ops, "MatMul") || slices.Contains(ops, "TopK") {
		t.Fatalf("SupportedOps: got %v, want a sorted list with MatMul and without TopK", ops)
	}
	if c := New[f32, f32](compute.Options{}).Capabilities(); c.Name != Name || !c.Supports(payload.Float32) {
		t.Fatalf("Capabilities: got %+v, want name %s supporting float32", c, Name)
	}
}
