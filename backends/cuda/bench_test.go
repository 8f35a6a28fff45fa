//go:build cuda && cgo

package cuda

import (
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// benchCase is a model and a call: one input of shape in, or items inputs
// of shape in through InferBatch.
type benchCase struct {
	name  string
	onnx  func() []byte
	in    []int
	items int
}

var benchCases = []benchCase{
	{"mlp_b1", testmodels.MLP, []int{1, 784}, 0},
	{"mlp_b64", testmodels.MLP, []int{64, 784}, 0},
	{"encoder_b1", testmodels.Encoder, []int{1, 32, 128}, 0},
	{"encoder_b64", testmodels.Encoder, []int{1, 32, 128}, 64},
}

// inferer is what the benchmarks call: a CUDA or a CPU model.
type inferer interface {
	InferOne(in, out *f32) error
	InferBatch(in batch.Batch[f32], out []f32) error
}

// BenchmarkModels runs each case on the GPU with graph replay, on the GPU
// enqueuing launches one by one, with graph replay and float16 or
// bfloat16 weights, with graph replay from and to device memory
// (one-tensor cases), and on the CPU backend (one thread), on the same
// inputs. It skips without a GPU.
func BenchmarkModels(b *testing.B) {
	requireGPU(b)
	for _, c := range benchCases {
		onnx := c.onnx()
		r := rand.New(rand.NewPCG(9, 9))
		n := payload.NumElems(c.in)
		in := f32{Shape: c.in, Data: uniform(r, n, 1)}
		items := make([]f32, c.items)
		for i := range items {
			items[i] = f32{Shape: c.in, Data: uniform(r, n, 1)}
		}
		outs := make([]f32, c.items)
		run := func(b *testing.B, m inferer) {
			var out f32
			call := func() error { return m.InferOne(&in, &out) }
			if c.items > 0 {
				bt := batch.Of(items)
				call = func() error { return m.InferBatch(bt, outs) }
			}
			if err := call(); err != nil {
				b.Fatalf("call: %v", err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := call(); err != nil {
					b.Fatalf("call: %v", err)
				}
			}
		}
		for _, graphs := range []bool{true, false} {
			name := c.name + "/cuda_graph"
			if !graphs {
				name = c.name + "/cuda_stream"
			}
			b.Run(name, func(b *testing.B) {
				defer func(old bool) { useGraphs = old }(useGraphs)
				useGraphs = graphs
				run(b, loadCUDA[f32, f32](b, onnx, compute.Options{}))
			})
		}
		for _, wt := range []payload.DType{payload.Float16, payload.BF16} {
			// 16-bit weights: GemmEx on converted activations (ADR 22).
			b.Run(c.name+"/cuda_graph_"+wt.String(), func(b *testing.B) {
				run(b, loadCUDA[f32, f32](b, onnx, compute.Options{WeightType: wt}))
			})
		}
		if c.items == 0 {
			// Input and output in device memory: no host transfer.
			b.Run(c.name+"/cuda_graph_device", func(b *testing.B) {
				m := loadCUDA[f32, f32](b, onnx, compute.Options{})
				var want f32
				if err := m.InferOne(&in, &want); err != nil {
					b.Fatalf("m.InferOne: %v", err)
				}
				din, err := NewTensor[float32](memclass.Device(0), c.in...)
				if err != nil {
					b.Fatalf("NewTensor: %v", err)
				}
				defer Free(&din)
				if err := CopyTensor(&din, &in); err != nil {
					b.Fatalf("CopyTensor: %v", err)
				}
				dout, err := NewTensor[float32](memclass.Device(0), want.Shape...)
				if err != nil {
					b.Fatalf("NewTensor: %v", err)
				}
				defer Free(&dout)
				if err := m.InferOne(&din, &dout); err != nil {
					b.Fatalf("m.InferOne: %v", err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := m.InferOne(&din, &dout); err != nil {
						b.Fatalf("m.InferOne: %v", err)
					}
				}
			})
		}
		b.Run(c.name+"/cpu", func(b *testing.B) {
			run(b, loadCPU[f32, f32](b, onnx))
		})
	}
}
