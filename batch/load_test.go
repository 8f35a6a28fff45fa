package batch_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

type f32 = payload.Tensor[float32]

const inDim, hidDim, outDim = 32, 64, 8

// mlp returns an MLP inDim-hidDim-outDim (Gemm, Relu, MatMul, Softmax)
// with a free batch dimension.
func mlp() []byte {
	r := rand.New(rand.NewPCG(7, 7))
	rnd := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32() - 0.5
		}
		return v
	}
	g := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, inDim)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, outDim)},
		Initializers: []onnxbuild.Tensor{
			onnxbuild.TensorOf("w1", []int64{hidDim, inDim}, rnd(hidDim*inDim)),
			onnxbuild.TensorOf("b1", []int64{hidDim}, rnd(hidDim)),
			onnxbuild.TensorOf("w2", []int64{hidDim, outDim}, rnd(hidDim*outDim)),
		},
		Nodes: []onnxbuild.Node{
			{Op: "Gemm", Inputs: []string{"x", "w1", "b1"}, Outputs: []string{"h"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("transB", 1)}},
			{Op: "Relu", Inputs: []string{"h"}, Outputs: []string{"r"}},
			{Op: "MatMul", Inputs: []string{"r", "w2"}, Outputs: []string{"z"}},
			{Op: "Softmax", Inputs: []string{"z"}, Outputs: []string{"y"}, Attrs: []onnxbuild.Attr{onnxbuild.AInt("axis", -1)}},
		},
	}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// instances loads n ready instances of the MLP on one backend.
func instances(t *testing.T, n int) []*backends.Model[f32, f32] {
	t.Helper()
	art, err := artifacts.FromBytes(mlp(), "mlp")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	be := backends.New[f32, f32](compute.Options{})
	ms := make([]*backends.Model[f32, f32], n)
	for i := range ms {
		if ms[i], err = be.LoadModel(art); err != nil {
			t.Fatal(err)
		}
		if err := ms[i].Init(); err != nil {
			t.Fatalf("ms[i].Init: %v", err)
		}
		t.Cleanup(func() { ms[i].Close() })
	}
	return ms
}

// input returns request (c, i)'s own input: no two requests share one.
func input(c, i int) f32 {
	r := rand.New(rand.NewPCG(uint64(c), uint64(i)))
	x := f32{Shape: []int{1, inDim}, Data: make([]float32, inDim)}
	for j := range x.Data {
		x.Data[j] = r.Float32()*4 - 2
	}
	return x
}

// 200 concurrent clients × 50 requests over two instances: every answer
// equals InferOne's on the same input, bit for bit; no error, no wrong,
// lost or duplicated answer.
func TestLoadAgainstInferOne(t *testing.T) {
	clients, each := 200, 50
	ms := instances(t, 3)
	ref := ms[2]
	want := make([][]f32, clients)
	for c := range clients {
		want[c] = make([]f32, each)
		for i := range each {
			in := input(c, i)
			if err := ref.InferOne(&in, &want[c][i]); err != nil {
				t.Fatalf("ref.InferOne: %v", err)
			}
		}
	}
	b, err := batch.NewBatcher[f32, f32](ms[:2], batch.Options{MaxBatch: 64, MaxDelay: 200 * time.Microsecond, QueueSize: 4096})
	if err != nil {
		t.Fatalf("batch.NewBatcher: %v", err)
	}
	var errCount, wrong, answered atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for c := range clients {
		wg.Go(func() {
			<-start
			var out f32
			for i := range each {
				in := input(c, i)
				if err := b.Infer(context.Background(), &in, &out); err != nil {
					errCount.Add(1)
					continue
				}
				answered.Add(1)
				if !equal(out, want[c][i]) {
					wrong.Add(1)
				}
			}
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	took := time.Since(t0)
	if err := b.Close(); err != nil {
		t.Fatalf("b.Close: %v", err)
	}
	s := b.Stats()
	var items uint64
	for n, c := range s.BatchSizes {
		items += uint64(n) * c
	}
	total := clients * each
	t.Logf("%d requests in %v (%.0f req/s): %d batches, mean size %.1f, mean queue wait %v, mean run %v",
		total, took.Round(time.Millisecond), float64(total)/took.Seconds(), s.Batches, s.MeanBatch(),
		s.QueueWait/time.Duration(max(s.Requests, 1)), s.RunTime/time.Duration(max(s.Batches, 1)))
	if errCount.Load() != 0 || wrong.Load() != 0 || answered.Load() != int64(total) {
		t.Fatalf("%d errors, %d wrong, %d answered of %d", errCount.Load(), wrong.Load(), answered.Load(), total)
	}
	if s.Requests != uint64(total) || items != uint64(total) || s.Failed != 0 || s.Canceled != 0 {
		t.Fatalf("requests %d, batched items %d (lost or duplicated), failed %d, canceled %d; want %d",
			s.Requests, items, s.Failed, s.Canceled, total)
	}
}

func equal(a, b f32) bool {
	if fmt.Sprint(a.Shape) != fmt.Sprint(b.Shape) || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			return false
		}
	}
	return true
}

// Close under load with real models: every call gets a right answer or
// ErrClosed.
func TestCloseUnderLoadCPU(t *testing.T) {
	ms := instances(t, 2)
	b, err := batch.NewBatcher[f32, f32](ms, batch.Options{MaxBatch: 32})
	if err != nil {
		t.Fatalf("batch.NewBatcher: %v", err)
	}
	want := make([]f32, 16)
	check := instances(t, 1)[0]
	for c := range want {
		in := input(c, 0)
		if err := check.InferOne(&in, &want[c]); err != nil {
			t.Fatalf("check.InferOne: %v", err)
		}
	}
	var bad atomic.Int64
	var wg sync.WaitGroup
	for c := range 64 {
		wg.Go(func() {
			in := input(c%16, 0)
			var out f32
			for {
				err := b.Infer(context.Background(), &in, &out)
				if errors.Is(err, batch.ErrClosed) {
					return
				}
				if err != nil || !equal(out, want[c%16]) {
					bad.Add(1)
					return
				}
			}
		})
	}
	for b.Stats().Requests < 500 {
		time.Sleep(time.Millisecond)
	}
	b.Close()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("callers still waiting after Close")
	}
	if bad.Load() != 0 {
		t.Fatalf("%d calls got neither a right answer nor ErrClosed", bad.Load())
	}
}

// Every compute.ComputeModel is a batch.Model.
var _ batch.Model[f32, f32] = compute.ComputeModel[f32, f32](nil)
