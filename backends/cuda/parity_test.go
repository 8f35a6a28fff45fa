//go:build cuda && cgo

package cuda

import (
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/backends/internal/gpu/gputest"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// tol is the relative L2 error the GPU may show against the CPU backend
// in float32; tolTF32 with TF32 tensor cores.
const (
	tol     = 1e-3
	tolTF32 = 1e-2
)

// The CUDA backend gives what the CPU backend gives on whole models, for
// one call and for a batch of items, from host and pinned inputs.
func TestModelsMatchCPU(t *testing.T) {
	requireGPU(t)
	for _, c := range modelCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(c.name))))
			gm := loadCUDA[f32, f32](t, c.onnx, compute.Options{})
			cm := loadCPU[f32, f32](t, c.onnx)
			in := f32{Shape: c.shape, Data: uniform(r, payload.NumElems(c.shape), 1)}
			var got, want f32
			if err := cm.InferOne(&in, &want); err != nil {
				t.Fatalf("cm.InferOne: %v", err)
			}
			for round := range 2 { // the second call replays the recorded graph
				if err := gm.InferOne(&in, &got); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				if e := relL2(got.Data, want.Data); e > tol || !sameShape(got.Shape, want.Shape) {
					t.Fatalf("round %d: shape %v (want %v), relative L2 error %.3g", round, got.Shape, want.Shape, e)
				}
			}
			pin, err := NewTensor[float32](memclass.Pinned, c.shape...)
			if err != nil {
				t.Fatalf("NewTensor: %v", err)
			}
			defer Free(&pin)
			copy(pin.Data, in.Data)
			if err := gm.InferOne(&pin, &got); err != nil {
				t.Fatalf("gm.InferOne: %v", err)
			}
			if e := relL2(got.Data, want.Data); e > tol {
				t.Fatalf("pinned input: relative L2 error %.3g", e)
			}
			// Three items of one row each, as a batch.
			item := append([]int{1}, c.shape[1:]...)
			n := payload.NumElems(item)
			ins := make([]f32, 3)
			for i := range ins {
				ins[i] = f32{Shape: item, Data: uniform(r, n, 1)}
			}
			outs, wants := make([]f32, 3), make([]f32, 3)
			if err := gm.InferBatch(batch.Of(ins), outs); err != nil {
				t.Fatalf("gm.InferBatch: %v", err)
			}
			for i := range ins {
				if err := cm.InferOne(&ins[i], &wants[i]); err != nil {
					t.Fatalf("cm.InferOne: %v", err)
				}
				if e := relL2(outs[i].Data, wants[i].Data); e > tol {
					t.Fatalf("batch item %d: relative L2 error %.3g", i, e)
				}
			}
		})
	}
}

// TF32 stays close to float32 on the MLP.
func TestModelTF32(t *testing.T) {
	requireGPU(t)
	b := testmodels.MLP()
	gm := loadCUDA[f32, f32](t, b, compute.Options{TF32: true})
	cm := loadCPU[f32, f32](t, b)
	in := f32{Shape: []int{8, 784}, Data: uniform(rand.New(rand.NewPCG(3, 4)), 8*784, 1)}
	var got, want f32
	if err := cm.InferOne(&in, &want); err != nil {
		t.Fatalf("cm.InferOne: %v", err)
	}
	if err := gm.InferOne(&in, &got); err != nil {
		t.Fatalf("gm.InferOne: %v", err)
	}
	if e := relL2(got.Data, want.Data); e > tolTF32 {
		t.Fatalf("TF32: relative L2 error %.3g", e)
	}
}

// softmaxModel is one Softmax over [-1, 10]: the second model of a chain.
func softmaxModel() []byte {
	m := onnxbuild.Model{Opset: 17, Graph: onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 10)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
		Nodes:   []onnxbuild.Node{testmodels.Node("Softmax", []string{"x"}, "y", onnxbuild.AInt("axis", -1))},
	}}
	return m.Encode()
}

// Every single-op case gives on the GPU what it gives on the CPU backend.
func TestOpsMatchCPU(t *testing.T) {
	requireGPU(t)
	cfg := config(compute.Options{})
	gputest.RunOpCases(t, cfg, tol)
	runExtraCases(t, cfg, tol)
}
