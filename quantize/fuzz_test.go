package quantize

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// FuzzModel quantizes arbitrary bytes dynamically and statically: never
// a panic, and every error wraps a sentinel.
func FuzzModel(f *testing.F) {
	lin := linear(17, nil)
	f.Add(lin.Encode())
	old := linear(9, []onnxbuild.Node{testmodels.Node("Clip", []string{"x"}, "h", onnxbuild.AFloat("min", 0))})
	f.Add(old.Encode())
	cnn := onnxbuild.Model{Opset: 13, Graph: onnxbuild.Graph{
		Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 2, 4, 4)},
		Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 3, 4, 4)},
		Initializers: []onnxbuild.Tensor{testmodels.Weight(testmodels.Rand(1), "w", 3, 2, 1, 1), testmodels.Weight(testmodels.Rand(2), "b", 3)},
		Nodes:        []onnxbuild.Node{testmodels.Node("Conv", []string{"x", "w", "b"}, "y")},
	}}
	f.Add(cnn.Encode())
	sentinels := []error{errs.InvalidArtifact, errs.Unsupported, errs.ShapeMismatch, errs.ExecutionFailed, errs.ResourceUnavailable}
	sample := Sample{randInput(testmodels.Rand(3), "x", 1, 16)}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []Options{{}, {Mode: Static, Method: Percentile, Samples: []Sample{sample}}} {
			_, _, err := Model(data, o)
			if err == nil {
				continue
			}
			ok := false
			for _, s := range sentinels {
				ok = ok || errors.Is(err, s)
			}
			if !ok {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
		}
	})
}
