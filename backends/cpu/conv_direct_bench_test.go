package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// convBenchShape is one Conv (constant weights, bias, fused Relu) of a
// benchmark.
type convBenchShape struct {
	name        string
	xs, ws      []int
	stride, pad int
	group       int
}

// BenchmarkConv measures single Conv kernels on the shapes of the
// benchmark CNN and of the PP-OCR classifier, and reports GFLOPS.
func BenchmarkConv(b *testing.B) {
	for _, s := range []convBenchShape{
		{name: "cnn1_3to16_32x32", xs: []int{1, 3, 32, 32}, ws: []int{16, 3, 3, 3}, stride: 1, pad: 1},
		{name: "cnn2_16to32_16x16", xs: []int{1, 16, 16, 16}, ws: []int{32, 16, 3, 3}, stride: 1, pad: 1},
		{name: "s2_3to8_48x192", xs: []int{1, 3, 48, 192}, ws: []int{8, 3, 3, 3}, stride: 2, pad: 1},
	} {
		b.Run(s.name, func(b *testing.B) {
			k, ins, outs := buildConvBench(b, s)
			b.ReportAllocs()
			for b.Loop() {
				if err := k.run(ins, outs); err != nil {
					b.Fatal(err)
				}
			}
			flops := 2 * float64(outs[0].numel()) * float64(nnProd(s.ws[1:]))
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// buildConvBench builds s's kernel as LoadModel would (constant weights
// and bias, Relu fused) and sizes its output.
func buildConvBench(tb testing.TB, s convBenchShape) (kernel, []*tensor, []*tensor) {
	tb.Helper()
	r := nnRng(3)
	x := mk(s.xs, nnRand(r, nnProd(s.xs)))
	w := mk(s.ws, nnRand(r, nnProd(s.ws)))
	bias := mk([]int{s.ws[0]}, nnRand(r, s.ws[0]))
	p, st := int64(s.pad), int64(s.stride)
	n := node("Conv", []string{"x", "w", "b"}, aInts("pads", p, p, p, p), aInts("strides", st, st), aInt("group", int64(max(s.group, 1))))
	n.Fused = &model.Fusion{Act: model.ActRelu}
	g := model.NewGraph()
	g.Opset = 17
	ins := []*tensor{x, w, bias}
	bc := &buildCtx{g: g, n: n, opset: 17}
	for i, t := range ins {
		bc.in = append(bc.in, model.ValueInfo{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), RankKnown: true})
		if i > 0 {
			g.Initializers[n.Input(i)] = &model.Tensor{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), Raw: t.data}
		}
	}
	bc.out = []model.ValueInfo{{Name: "y", DType: x.dt}}
	k, err := registry["Conv"](bc)
	if err != nil {
		tb.Fatal(err)
	}
	outs := []*tensor{{dt: x.dt}}
	if err := k.shape(ins, outs); err != nil {
		tb.Fatal(err)
	}
	outs[0].data = alignedBytes(outs[0].numel() * outs[0].dt.Size())
	if err := k.run(ins, outs); err != nil {
		tb.Fatal(err)
	}
	_ = fmt.Sprint
	return k, ins, outs
}
