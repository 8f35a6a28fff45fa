package cpu_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// The Scale op of custom_example_test.go loads, infers, checks and runs
// like a built-in op, in InferOne and InferBatch, allocating nothing.
func TestCustomOp(t *testing.T) {
	art, err := artifacts.FromBytes(scaleModel(), "scale.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if issues := cpu.Check(art, compute.Options{}); len(issues) != 0 {
		t.Fatalf("Check: got %v, want no issues", issues)
	}
	m, err := cpu.New[f32, f32](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatal(err)
	}
	if got := m.Metadata().Outputs[0].Shape; len(got) != 2 || got[1] != 3 {
		t.Errorf("output shape %v, want [-1 3] inferred through the custom op", got)
	}
	ins := []f32{{Shape: []int{1, 3}, Data: []float32{1, -2, 3}}, {Shape: []int{1, 3}, Data: []float32{-4, 5, 0.5}}}
	outs := make([]f32, 2)
	if err := m.InferBatch(batch.Of(ins), outs); err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{2.5, 0, 7.5}, {0, 12.5, 1.25}}
	for i := range outs {
		for j, w := range want[i] {
			if got := outs[i].Data[j]; got != w {
				t.Errorf("item %d element %d: got %v, want %v", i, j, got, w)
			}
		}
	}
	if got := testing.AllocsPerRun(20, func() {
		if err := m.InferOne(&ins[0], &outs[0]); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("InferOne through a custom op allocates %v times per call, want 0", got)
	}
}

func TestRegisterCustomOpErrors(t *testing.T) {
	newK := func(*model.Node) (cpu.CustomKernel, error) { return &scale{factor: 1}, nil }
	cases := []struct {
		name string
		op   cpu.CustomOp
		want string
	}{
		{"ONNX's domain", cpu.CustomOp{Domain: "", Type: "Relu", MinInputs: 1, MaxInputs: 1, Outputs: 1, New: newK}, "domain of its own"},
		{"ai.onnx", cpu.CustomOp{Domain: "ai.onnx", Type: "Mine", MinInputs: 1, MaxInputs: 1, Outputs: 1, New: newK}, "domain of its own"},
		{"no kernel", cpu.CustomOp{Domain: "com.example", Type: "Nothing", MinInputs: 1, MaxInputs: 1, Outputs: 1}, "New"},
		{"no outputs", cpu.CustomOp{Domain: "com.example", Type: "Sink", MinInputs: 1, MaxInputs: 1, New: newK}, "Outputs"},
		{"twice", cpu.CustomOp{Domain: "com.example", Type: "Scale", MinInputs: 1, MaxInputs: 1, Outputs: 1, New: newK}, "registered already"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := cpu.RegisterCustomOp(c.op)
			if !errors.Is(err, compute.ErrInvalidArtifact) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want ErrInvalidArtifact mentioning %q", err, c.want)
			}
		})
	}
}

// A model using an op of a domain nothing registered is refused at load,
// naming the domain and how to add a kernel.
func TestUnregisteredDomain(t *testing.T) {
	m := onnxbuild.Model{Opsets: map[string]int64{"org.other": 1}, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, 1, 3)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, 1, 3)},
		Nodes:   []onnxbuild.Node{{Name: "z", Op: "Zap", Domain: "org.other", Inputs: []string{"x"}, Outputs: []string{"y"}}},
	}}
	art, err := artifacts.FromBytes(m.Encode(), "other.onnx")
	if err != nil {
		t.Fatal(err)
	}
	_, err = cpu.New[f32, f32](compute.Options{}).LoadModel(art)
	if !errors.Is(err, compute.ErrUnsupported) || !strings.Contains(err.Error(), `"org.other"`) || !strings.Contains(err.Error(), "RegisterCustomOp") {
		t.Errorf("got %v, want ErrUnsupported naming the domain and RegisterCustomOp", err)
	}
}
