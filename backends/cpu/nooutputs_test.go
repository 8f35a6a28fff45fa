package cpu

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// A node that names no output, or only empty ones, computes nothing
// anyone reads: the model loads and runs, or is refused with an error,
// and never panics. y = Relu(x) stays correct beside it.
func TestNodeWithoutOutputs(t *testing.T) {
	ops := []struct {
		op    string
		ins   []string
		attrs []onnxbuild.Attr
	}{
		{"Cast", []string{"x"}, []onnxbuild.Attr{onnxbuild.AInt("to", int64(payload.Int64))}},
		{"Relu", []string{"x"}, nil},
		{"Add", []string{"x", "x"}, nil},
		{"Split", []string{"x"}, []onnxbuild.Attr{onnxbuild.AInt("axis", 0)}},
		{"Shape", []string{"x"}, nil},
		{"Dropout", []string{"x"}, nil},
		{"TopK", []string{"x", "k"}, nil},
		{"Concat", []string{"x", "x"}, []onnxbuild.Attr{onnxbuild.AInt("axis", 0)}},
	}
	for _, c := range ops {
		for _, outs := range [][]string{nil, {""}, {"", ""}} {
			t.Run(fmt.Sprintf("%s/%q", c.op, outs), func(t *testing.T) {
				g := onnxbuild.Graph{
					Inputs:       []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 4)},
					Outputs:      []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 4)},
					Initializers: []onnxbuild.Tensor{onnxbuild.TensorOf("k", []int64{1}, []int64{2})},
					Nodes: []onnxbuild.Node{
						{Name: "odd", Op: c.op, Inputs: c.ins, Outputs: outs, Attrs: c.attrs},
						{Name: "relu", Op: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}},
					},
				}
				m, err := loadNoOutputs(onnxbuild.Model{Opset: 17, Graph: g})
				if err != nil {
					if !errors.Is(err, compute.ErrInvalidArtifact) && !errors.Is(err, compute.ErrUnsupported) || strings.Contains(err.Error(), "internal error") {
						t.Fatalf("load: %v, want an invalid-artifact or unsupported error", err)
					}
					return
				}
				defer m.Close()
				x := payload.Tensor[float32]{Shape: []int{4}, Data: []float32{-1, 2, -3, 4}}
				in := payload.Multi{Tensors: []payload.Dynamic{payload.DynamicOf("x", x)}}
				var out payload.Multi
				if err := m.InferOne(&in, &out); err != nil {
					t.Fatalf("infer: %v", err)
				}
				got, ok := payload.FromBytes[float32](out.Get("y").Data)
				if !ok {
					t.Fatal("y is not float32 data")
				}
				want := []float32{0, 2, 0, 4}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("y = %v, want %v", got, want)
					}
				}
			})
		}
	}
}

// loadNoOutputs decodes and loads m; either step may refuse it.
func loadNoOutputs(m onnxbuild.Model) (*Model[payload.Multi, payload.Multi], error) {
	art, err := artifacts.FromBytes(m.Encode(), "m.onnx")
	if err != nil {
		return nil, err
	}
	mod, err := New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		return nil, err
	}
	if err := mod.Init(); err != nil {
		_ = mod.Close()
		return nil, err
	}
	return mod, nil
}
