package cpu

import (
	"math/rand/v2"
	"testing"
)

// opBenchCases are nodes at the shapes PP-OCRv4 (detection at 320×320,
// recognition at 48×320) and the transformer layer run them.
func opBenchCases() []threadsCase {
	r := rand.New(rand.NewPCG(41, 42))
	scales := func(v ...float32) *tensor { return mk([]int{len(v)}, v) }
	nearest := nodeCase{node: node("Resize", []string{"x", "", "s"}, aString("mode", "nearest"),
		aString("coordinate_transformation_mode", "asymmetric"), aString("nearest_mode", "floor")), consts: []int{2}, opset: 13}
	pos := randT(r, 1, 24)
	for i, v := range pos.f32() {
		pos.f32()[i] = v*v + 0.1
	}
	return []threadsCase{
		{name: "BatchNorm_1x24x160x160", c: nodeCase{node: node("BatchNormalization", []string{"x", "s", "b", "m", "v"})},
			ins: []*tensor{randT(r, 4, 1, 24, 160, 160), randT(r, 1, 24), randT(r, 1, 24), randT(r, 1, 24), pos}},
		{name: "Resize2x_1x96x40x40", c: nearest, ins: []*tensor{randT(r, 1, 1, 96, 40, 40), nil, scales(1, 1, 2, 2)}},
		{name: "Resize8x_1x24x10x10", c: nearest, ins: []*tensor{randT(r, 1, 1, 24, 10, 10), nil, scales(1, 1, 8, 8)}},
		{name: "Concat_4x1x24x80x80", c: nodeCase{node: node("Concat", []string{"a", "b", "c", "d"}, aInt("axis", 1))},
			ins: []*tensor{randT(r, 1, 1, 24, 80, 80), randT(r, 1, 1, 24, 80, 80), randT(r, 1, 1, 24, 80, 80), randT(r, 1, 1, 24, 80, 80)}},
		{name: "GlobalAvgPool_1x96x80x80", c: nodeCase{node: node("GlobalAveragePool", []string{"x"})}, ins: []*tensor{randT(r, 1, 1, 96, 80, 80)}},
		{name: "AvgPool3x2_1x480x3x80", c: nodeCase{node: node("AveragePool", []string{"x"}, aInts("kernel_shape", 3, 2), aInts("strides", 3, 2))},
			ins: []*tensor{randT(r, 1, 1, 480, 3, 80)}},
		{name: "Softmax_1x40x6625", c: nodeCase{node: node("Softmax", []string{"x"}, aInt("axis", 2))}, ins: []*tensor{randT(r, 8, 1, 40, 6625)}},
		{name: "Softmax_1x8x40x40", c: nodeCase{node: node("Softmax", []string{"x"}, aInt("axis", 3))}, ins: []*tensor{randT(r, 8, 1, 8, 40, 40)}},
		{name: "Softmax_4x32x32", c: nodeCase{node: node("Softmax", []string{"x"})}, ins: []*tensor{randT(r, 8, 4, 32, 32)}},
		{name: "LayerNorm_32x128", c: nodeCase{node: node("LayerNormalization", []string{"x", "s", "b"}, aInt("axis", -1))},
			ins: []*tensor{randT(r, 4, 1, 32, 128), randT(r, 1, 128), randT(r, 1, 128)}},
		{name: "Transpose_1x120x40", c: nodeCase{node: node("Transpose", []string{"x"}, aInts("perm", 0, 2, 1))}, ins: []*tensor{randT(r, 1, 1, 120, 40)}},
		{name: "ReduceMean_1x240x120", c: nodeCase{node: node("ReduceMean", []string{"x"}, aInts("axes", -1)), opset: 13}, ins: []*tensor{randT(r, 1, 1, 240, 120)}},
	}
}

// BenchmarkThreadsOps times the nodes of opBenchCases on one thread and
// on two.
func BenchmarkThreadsOps(b *testing.B) {
	for _, tc := range opBenchCases() {
		for _, threads := range []int{1, 2} {
			b.Run(tc.name+"/threads="+string(rune('0'+threads)), func(b *testing.B) {
				step := threadsStepper(b, tc.c, threads, tc.ins)
				for b.Loop() {
					step()
				}
			})
		}
	}
}
