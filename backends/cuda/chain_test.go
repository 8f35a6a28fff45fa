//go:build cuda && cgo

package cuda

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/memclass"
)

// Model A's output stays on the GPU as model B's input, in one call and
// in a batch, and gives what the CPU backend gives.
func TestDeviceChain(t *testing.T) {
	requireGPU(t)
	mlp, sm := testmodels.MLP(), softmaxModel()
	a, b := loadCUDA[f32, f32](t, mlp, compute.Options{}), loadCUDA[f32, f32](t, sm, compute.Options{})
	ca, cb := loadCPU[f32, f32](t, mlp), loadCPU[f32, f32](t, sm)
	r := rand.New(rand.NewPCG(5, 6))
	in := f32{Shape: []int{4, 784}, Data: uniform(r, 4*784, 1)}
	var mid, want, got f32
	if err := ca.InferOne(&in, &mid); err != nil {
		t.Fatalf("ca.InferOne: %v", err)
	}
	if err := cb.InferOne(&mid, &want); err != nil {
		t.Fatalf("cb.InferOne: %v", err)
	}

	dIn, err := NewTensor[float32](memclass.Device(0), 4, 784)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	defer Free(&dIn)
	if err := CopyTensor(&dIn, &in); err != nil {
		t.Fatalf("CopyTensor: %v", err)
	}
	dMid, err := NewTensor[float32](memclass.Device(0), 4, 10)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	defer Free(&dMid)
	dOut, err := NewTensor[float32](memclass.Device(0), 4, 10)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	defer Free(&dOut)
	if err := a.InferOne(&dIn, &dMid); err != nil {
		t.Fatalf("a.InferOne: %v", err)
	}
	if dMid.Place != memclass.Device(0) {
		t.Fatalf("the output left the GPU: %v", dMid.Place)
	}
	if err := b.InferOne(&dMid, &dOut); err != nil {
		t.Fatalf("b.InferOne: %v", err)
	}
	got = f32{Shape: []int{4, 10}, Data: make([]float32, 40)}
	if err := CopyTensor(&got, &dOut); err != nil {
		t.Fatalf("CopyTensor: %v", err)
	}
	if e := relL2(got.Data, want.Data); e > tol {
		t.Fatalf("device chain: relative L2 error %.3g", e)
	}
	// Device input, host output.
	var host f32
	if err := b.InferOne(&dMid, &host); err != nil {
		t.Fatalf("b.InferOne: %v", err)
	}
	if e := relL2(host.Data, want.Data); e > tol || host.Place != memclass.Host {
		t.Fatalf("device in, host out: %v, relative L2 error %.3g", host.Place, e)
	}

	// A batch of device items.
	items := make([]f32, 2)
	outs := make([]f32, 2)
	for i := range items {
		if items[i], err = NewTensor[float32](memclass.Device(0), 1, 784); err != nil {
			t.Fatalf("NewTensor: %v", err)
		}
		defer Free(&items[i])
		row := f32{Shape: []int{1, 784}, Data: in.Data[i*784 : (i+1)*784]}
		if err := CopyTensor(&items[i], &row); err != nil {
			t.Fatalf("CopyTensor: %v", err)
		}
	}
	if err := a.InferBatch(batch.Of(items), outs); err != nil {
		t.Fatalf("a.InferBatch: %v", err)
	}
	for i := range outs {
		if e := relL2(outs[i].Data, mid.Data[i*10:(i+1)*10]); e > tol {
			t.Fatalf("device batch item %d: relative L2 error %.3g", i, e)
		}
	}
}

// Device payloads NewTensor did not allocate, freed ones, and device
// outputs too small are refused with an error, never a crash.
func TestDevicePayloadRefused(t *testing.T) {
	requireGPU(t)
	sm := softmaxModel()
	m := loadCUDA[f32, f32](t, sm, compute.Options{})
	host := f32{Shape: []int{1, 10}, Data: make([]float32, 10)}
	var out f32
	forged := f32{Shape: []int{1, 10}, Data: make([]float32, 10), Place: memclass.Device(0)}
	if err := m.InferOne(&forged, &out); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("forged device input: %v", err)
	}
	freed, err := NewTensor[float32](memclass.Device(0), 1, 10)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	stale := freed
	if err := Free(&freed); err != nil {
		t.Fatalf("Free: %v", err)
	}
	if err := m.InferOne(&stale, &out); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("freed device input: %v", err)
	}
	if err := Free(&stale); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("double Free: %v", err)
	}
	small, err := NewTensor[float32](memclass.Device(0), 1, 5)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	defer Free(&small)
	if err := m.InferOne(&host, &small); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("too small device output: %v", err)
	}
	other, err := NewTensor[float32](memclass.Device(1), 1, 10)
	if err == nil {
		Free(&other)
		t.Fatal("NewTensor on device 1 succeeded")
	}
	// The model still works after every refusal.
	if err := m.InferOne(&host, &out); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
}
