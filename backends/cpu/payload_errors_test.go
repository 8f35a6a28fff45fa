package cpu_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// twoInputModel is y = audio + sr (float32 [1, 4] and [1]), with inputs
// named as a speech model's are.
func twoInputModel(t *testing.T) *artifacts.Artifact {
	t.Helper()
	m := &onnxbuild.Model{Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("audio", payload.Float32, 1, 4), onnxbuild.Input("sr", payload.Float32, 1)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 4)},
		Nodes:   []onnxbuild.Node{{Op: "Add", Inputs: []string{"audio", "sr"}, Outputs: []string{"y"}}},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "two inputs")
	if err != nil {
		t.Fatal(err)
	}
	return art
}

// TestPayloadErrors checks that a payload that does not fit the model is
// refused with the right sentinel and a message that says what to fix.
func TestPayloadErrors(t *testing.T) {
	f32 := func(name string, shape []int) payload.Dynamic {
		return payload.DynamicOf(name, payload.Tensor[float32]{Shape: shape, Data: make([]float32, payload.NumElems(shape))})
	}
	cases := []struct {
		name     string
		in       payload.Multi
		want     []error
		contains []string
	}{
		{"misspelt name", payload.Multi{Tensors: []payload.Dynamic{f32("audioX", []int{1, 4}), f32("sr", []int{1})}},
			[]error{compute.ErrShapeMismatch}, []string{`"audio" is missing`, `"audioX", not an input`, `"audio", "sr"`}},
		{"wrong element type", payload.Multi{Tensors: []payload.Dynamic{
			payload.DynamicOf("audio", payload.Tensor[int64]{Shape: []int{1, 4}, Data: make([]int64, 4)}), f32("sr", []int{1})}},
			[]error{compute.ErrTypeMismatch, compute.ErrShapeMismatch}, []string{`"audio"`, "int64", "float32"}},
		{"wrong shape", payload.Multi{Tensors: []payload.Dynamic{f32("audio", []int{1, 5}), f32("sr", []int{1})}},
			[]error{compute.ErrShapeMismatch}, []string{`"audio"`, "[1 5]"}},
	}
	mod, err := cpu.New[payload.Multi, payload.Multi](compute.Options{}).LoadModel(twoInputModel(t))
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close()
	if err := mod.Init(); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out payload.Multi
			err := mod.InferOne(&c.in, &out)
			for _, w := range c.want {
				if !errors.Is(err, w) {
					t.Errorf("got error %v, want one that matches %v", err, w)
				}
			}
			for _, s := range c.contains {
				if err == nil || !strings.Contains(err.Error(), s) {
					t.Errorf("got error %v, want it to contain %s", err, s)
				}
			}
		})
	}
	if errors.Is(compute.ErrShapeMismatch, compute.ErrTypeMismatch) {
		t.Error("ErrShapeMismatch matches ErrTypeMismatch; want only the other way round")
	}
}
