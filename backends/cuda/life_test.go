//go:build cuda && cgo

package cuda

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/memclass"
)

// Calls at a known shape allocate nothing, from host, pinned and device
// payloads, one at a time and in batches.
func TestInferAllocatesNothing(t *testing.T) {
	requireGPU(t)
	b := testmodels.MLP()
	m := loadCUDA[f32, f32](t, b, compute.Options{})
	r := rand.New(rand.NewPCG(1, 1))
	in := f32{Shape: []int{2, 784}, Data: uniform(r, 2*784, 1)}
	var out f32
	pin, err := NewTensor[float32](memclass.Pinned, 2, 784)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	defer Free(&pin)
	dev, err := NewTensor[float32](memclass.Device(0), 2, 10)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	defer Free(&dev)
	items := []f32{{Shape: []int{1, 784}, Data: in.Data[:784]}, {Shape: []int{1, 784}, Data: in.Data[784:]}}
	outs := make([]f32, 2)
	bt := batch.Of(items)
	cases := []struct {
		name string
		call func() error
	}{
		{"InferOne host", func() error { return m.InferOne(&in, &out) }},
		{"InferOne pinned", func() error { return m.InferOne(&pin, &out) }},
		{"InferOne device out", func() error { return m.InferOne(&in, &dev) }},
		{"InferBatch host", func() error { return m.InferBatch(bt, outs) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); err != nil { // plan, record, grow outputs
				t.Fatalf("%s: %v", c.name, err)
			}
			var err error
			if n := testing.AllocsPerRun(20, func() { err = c.call() }); n != 0 || err != nil {
				t.Fatalf("%v allocations per call, err %v", n, err)
			}
		})
	}
}

// Reset and Drain work on an open model; a closed model refuses every
// call with ErrClosed; closing twice is fine; a model used before Init
// says so.
func TestClosedModel(t *testing.T) {
	requireGPU(t)
	b := softmaxModel()
	m := loadCUDA[f32, f32](t, b, compute.Options{})
	in := f32{Shape: []int{1, 10}, Data: make([]float32, 10)}
	var out f32
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	if err := m.Reset(); err != nil { // plans and graphs are made again
		t.Fatalf("Reset: %v", err)
	}
	if err := m.InferOne(&in, &out); err != nil || len(out.Data) != 10 {
		t.Fatalf("after Reset: %v, %v", out.Shape, err)
	}
	if err := m.Drain(); err != nil {
		t.Fatalf("m.Drain: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("m.Close: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for name, err := range map[string]error{
		"InferOne":   m.InferOne(&in, &out),
		"InferBatch": m.InferBatch(batch.Of([]f32{in}), make([]f32, 1)),
		"Init":       m.Init(),
		"Reset":      m.Reset(),
		"Drain":      m.Drain(),
	} {
		if !errors.Is(err, compute.ErrClosed) {
			t.Errorf("%s after Close: %v", name, err)
		}
	}
	art := loadArtifact(t, b)
	fresh, err := New[f32, f32](compute.Options{}).LoadModel(art)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	defer fresh.Close()
	if err := fresh.InferOne(&in, &out); !errors.Is(err, compute.ErrNotInitialized) {
		t.Fatalf("InferOne before Init: %v", err)
	}
	md := fresh.Metadata()
	if md.PreferredInput != memclass.Pinned || md.PreferredOutput != memclass.Pinned ||
		!md.AcceptedInput.Contains(memclass.Device(0)) || !md.AcceptedInput.Contains(memclass.Host) || md.AcceptedInput.Contains(memclass.Device(1)) {
		t.Fatalf("metadata classes: %+v", md)
	}
}

// Models on several goroutines at once, each with its own stream and
// cuBLAS handle, give what the CPU backend gives.
func TestConcurrentModels(t *testing.T) {
	requireGPU(t)
	b := testmodels.MLP()
	cm := loadCPU[f32, f32](t, b)
	const workers, calls = 4, 20
	ms := make([]*Model[f32, f32], workers)
	for i := range ms {
		ms[i] = loadCUDA[f32, f32](t, b, compute.Options{})
	}
	ins, wants := make([]f32, workers), make([]f32, workers)
	for i := range ins {
		ins[i] = f32{Shape: []int{3, 784}, Data: uniform(rand.New(rand.NewPCG(uint64(i), 8)), 3*784, 1)}
		if err := cm.InferOne(&ins[i], &wants[i]); err != nil {
			t.Fatalf("cm.InferOne: %v", err)
		}
	}
	errc := make(chan error, workers)
	for i := range ms {
		go func() {
			var out f32
			for range calls {
				if err := ms[i].InferOne(&ins[i], &out); err != nil {
					errc <- err
					return
				}
				if e := relL2(out.Data, wants[i].Data); e > tol {
					errc <- fmt.Errorf("worker %d: relative L2 error %.3g", i, e)
					return
				}
			}
			errc <- nil
		}()
	}
	for range ms {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
}

// A pinned output is written in place (the model marks it host memory,
// which it is) and Free still releases it, found by its address.
func TestPinnedOutput(t *testing.T) {
	requireGPU(t)
	m := loadCUDA[f32, f32](t, softmaxModel(), compute.Options{})
	in := f32{Shape: []int{1, 10}, Data: uniform(rand.New(rand.NewPCG(4, 4)), 10, 1)}
	out, err := NewTensor[float32](memclass.Pinned, 1, 10)
	if err != nil {
		t.Fatalf("NewTensor: %v", err)
	}
	keep := out
	if err := m.InferOne(&in, &out); err != nil {
		t.Fatalf("m.InferOne: %v", err)
	}
	if &out.Data[0] != &keep.Data[0] {
		t.Fatal("the pinned output was replaced")
	}
	if err := Free(&out); err != nil {
		t.Fatalf("Free: %v", err)
	}
	if err := Free(&keep); !errors.Is(err, compute.ErrShapeMismatch) {
		t.Fatalf("second Free of the pinned tensor: %v", err)
	}
}
