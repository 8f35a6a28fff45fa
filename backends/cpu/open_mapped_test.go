package cpu_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// TestMappedModelOutlivesArtifact loads a model through artifacts.Open
// (which maps the file on Linux and macOS), drops the artifact, collects
// garbage and checks that the model still gives the bits of the same
// model loaded from bytes on the heap: the model keeps the mapping its
// weights view alive.
func TestMappedModelOutlivesArtifact(t *testing.T) {
	for _, c := range []struct {
		name string
		onnx []byte
		in   []int
	}{
		{"mlp", mlp(rand.New(rand.NewPCG(1, 2))), []int{3, 784}},
		// Sum reads its constants in place at run time; their names
		// shift their raw_data by one byte each, so that some are aligned
		// in the file and viewed there rather than copied.
		{"sum_of_constants", sumOfConstants(), []int{2, 1024}},
	} {
		t.Run(c.name, func(t *testing.T) { mappedOutlivesArtifact(t, c.onnx, c.in) })
	}
}

// sumOfConstants is y = x + c + cc + ccc + cccc, the constants of shape
// [1024].
func sumOfConstants() []byte {
	r := rand.New(rand.NewPCG(7, 8))
	g := onnxbuild.Graph{
		Name:    "sum",
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 1024)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 1024)},
		Nodes:   []onnxbuild.Node{{Op: "Sum", Inputs: []string{"x", "c", "cc", "ccc", "cccc"}, Outputs: []string{"y"}}},
	}
	for _, name := range []string{"c", "cc", "ccc", "cccc"} {
		g.Initializers = append(g.Initializers, onnxbuild.TensorOf(name, []int64{1024}, randSlice(r, 1024, 1)))
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

func mappedOutlivesArtifact(t *testing.T, b []byte, shape []int) {
	p := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	load := func(art *artifacts.Artifact) *cpu.Model[f32, f32] {
		m, err := cpu.New[f32, f32](compute.Options{Threads: 1}).LoadModel(art)
		if err != nil {
			t.Fatalf("LoadModel: %v", err)
		}
		if err := m.Init(); err != nil {
			t.Fatalf("m.Init: %v", err)
		}
		t.Cleanup(func() { _ = m.Close() })
		return m
	}
	art, err := artifacts.Open(p)
	if err != nil {
		t.Fatalf("artifacts.Open: %v", err)
	}
	mapped := load(art)
	art = nil
	for range 3 {
		runtime.GC()
	}
	ref, err := artifacts.FromBytes(b, "m")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	heap := load(ref)
	in := f32{Shape: shape, Data: randSlice(rand.New(rand.NewPCG(5, 6)), shape[0]*shape[1], 1)}
	var got, want f32
	for call := range 2 {
		if err := mapped.InferOne(&in, &got); err != nil {
			t.Fatalf("call %d: mapped.InferOne: %v", call, err)
		}
		if err := heap.InferOne(&in, &want); err != nil {
			t.Fatalf("call %d: heap.InferOne: %v", call, err)
		}
		for i := range want.Data {
			if got.Data[i] != want.Data[i] {
				t.Fatalf("call %d: element %d is %v from the mapped file after its artifact was collected, want %v", call, i, got.Data[i], want.Data[i])
			}
		}
		runtime.GC()
	}
}
