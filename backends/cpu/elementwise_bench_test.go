package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// BenchmarkElementwise measures the float32 elementwise, variadic,
// reduction, comparison and pooling kernels on 64×1024 inputs, and the
// float16 ones that run through them.
func BenchmarkElementwise(b *testing.B) {
	x := make([]float32, 64*1024)
	y := make([]float32, 1024)
	for i := range x {
		x[i] = float32(i%97)*0.03 - 1
	}
	for i := range y {
		y[i] = float32(i%13)*0.1 + 0.5
	}
	s, r := []int{64, 1024}, []int{1024}
	img := []int{1, 64, 32, 32}
	h := make([]uint16, len(x))
	halfF16.narrowSlice(h, x)
	xh := &tensor{dt: payload.Float16, shape: s, data: payload.AsBytes(h)}
	for _, c := range []struct {
		name  string
		n     *model.Node
		opset int64
		ins   []*tensor
		out   payload.DType
	}{
		{"Add_broadcast", node("Add", []string{"a", "b"}), 17, []*tensor{mk(s, x), mk(r, y)}, payload.Float32},
		{"Mul", node("Mul", []string{"a", "b"}), 17, []*tensor{mk(s, x), mk(s, x)}, payload.Float32},
		{"Max_variadic", node("Max", []string{"a", "b", "c"}), 17, []*tensor{mk(s, x), mk(r, y), mk(s, x)}, payload.Float32},
		{"Less", node("Less", []string{"a", "b"}), 17, []*tensor{mk(s, x), mk(r, y)}, payload.Bool},
		{"Relu", node("Relu", []string{"a"}), 17, []*tensor{mk(s, x)}, payload.Float32},
		{"Exp", node("Exp", []string{"a"}), 17, []*tensor{mk(s, x)}, payload.Float32},
		{"Clip", node("Clip", []string{"a", "lo", "hi"}), 17, []*tensor{mk(s, x), mk([]int{}, []float32{-0.5}), mk([]int{}, []float32{0.5})}, payload.Float32},
		{"ReduceSum_rows", node("ReduceSum", []string{"a"}, aInts("axes", 1)), 11, []*tensor{mk(s, x)}, payload.Float32},
		{"ReduceMax_cols", node("ReduceMax", []string{"a"}, aInts("axes", 0)), 17, []*tensor{mk(s, x)}, payload.Float32},
		{"Softmax", node("Softmax", []string{"a"}), 17, []*tensor{mk(s, x)}, payload.Float32},
		{"MaxPool_3x3", node("MaxPool", []string{"a"}, aInts("kernel_shape", 3, 3), aInts("pads", 1, 1, 1, 1)), 17, []*tensor{mk(img, x)}, payload.Float32},
		{"Mul_float16", node("Mul", []string{"a", "b"}), 17, []*tensor{xh, xh}, payload.Float16},
	} {
		g := model.NewGraph()
		g.Opset = c.opset
		bc := &buildCtx{g: g, n: c.n, opset: c.opset}
		for i, t := range c.ins {
			bc.in = append(bc.in, model.ValueInfo{Name: c.n.Input(i), DType: t.dt, Shape: t.shape, RankKnown: true})
		}
		bc.out = []model.ValueInfo{{Name: "y", DType: c.out}}
		k, err := buildKernel(bc)
		if err != nil {
			b.Logf("%s: %v (skipped)", c.name, err)
			continue
		}
		sh := newOutShaper(bc, k)
		outs := []*tensor{{dt: c.out}}
		if err := sh.shapes(c.ins, outs); err != nil {
			b.Fatalf("%s: shapes: %v", c.name, err)
		}
		outs[0].data = alignedBytes(outs[0].numel() * c.out.Size())
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := sh.shapes(c.ins, outs); err != nil {
					b.Fatal(err)
				}
				if err := k.run(c.ins, outs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
