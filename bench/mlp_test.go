package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

type f32 = payload.Tensor[float32]

// mlpModel returns an MLP 784-512-512-10 (MatMul+Add+Relu) with a free
// batch dimension and random weights.
func mlpModel() []byte {
	r := rand.New(rand.NewPCG(1, 1))
	dims := []int64{784, 512, 512, 10}
	g := onnxbuild.Graph{
		Inputs:  []onnxbuild.Value{onnxbuild.Input("x", payload.Float32, -1, 784)},
		Outputs: []onnxbuild.Value{onnxbuild.Input("y", payload.Float32, -1, 10)},
	}
	prev := "x"
	for l := range 3 {
		w := make([]float32, dims[l]*dims[l+1])
		for i := range w {
			w[i] = r.Float32()*0.1 - 0.05
		}
		wn, bn := fmt.Sprint("w", l), fmt.Sprint("b", l)
		g.Initializers = append(g.Initializers, onnxbuild.TensorOf(wn, []int64{dims[l], dims[l+1]}, w),
			onnxbuild.TensorOf(bn, []int64{dims[l+1]}, make([]float32, dims[l+1])))
		out := fmt.Sprint("h", l)
		g.Nodes = append(g.Nodes,
			onnxbuild.Node{Op: "MatMul", Inputs: []string{prev, wn}, Outputs: []string{out + "mm"}},
			onnxbuild.Node{Op: "Add", Inputs: []string{out + "mm", bn}, Outputs: []string{out}})
		if l < 2 {
			g.Nodes = append(g.Nodes, onnxbuild.Node{Op: "Relu", Inputs: []string{out}, Outputs: []string{out + "r"}})
			out += "r"
		}
		prev = out
	}
	g.Nodes[len(g.Nodes)-1].Outputs = []string{"y"}
	m := onnxbuild.Model{Opset: 17, Graph: g}
	return m.Encode()
}

// BenchmarkMLP measures InferOne on an MLP 784-512-512-10 at batch 1 and
// batch 64 (one [64,784] tensor), and InferBatch over 64 [1,784] items.
func BenchmarkMLP(b *testing.B) {
	art, err := artifacts.FromBytes(mlpModel(), "mlp")
	if err != nil {
		b.Fatal(err)
	}
	m, err := backends.New[f32, f32](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		b.Fatal(err)
	}
	if err := m.Init(); err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	for _, n := range []int{1, 64} {
		b.Run(fmt.Sprintf("InferOne/batch=%d", n), func(b *testing.B) {
			in := f32{Shape: []int{n, 784}, Data: make([]float32, n*784)}
			var out f32
			flops := 2 * float64(n) * (784*512 + 512*512 + 512*10)
			b.ReportAllocs()
			for b.Loop() {
				if err := m.InferOne(&in, &out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
	b.Run("InferBatch/items=64", func(b *testing.B) {
		ins := make([]f32, 64)
		for i := range ins {
			ins[i] = f32{Shape: []int{1, 784}, Data: make([]float32, 784)}
		}
		outs := make([]f32, 64)
		b.ReportAllocs()
		for b.Loop() {
			if err := m.InferBatch(batch.Of(ins), outs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
