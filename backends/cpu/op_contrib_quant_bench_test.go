package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// BenchmarkContribQuant times the quantized contrib ops on a residual
// block's sizes (64 channels of 56×56) and a transformer layer's GEMM
// (128 rows, 768×768 constant weights).
func BenchmarkContribQuant(b *testing.B) {
	const c, hw = 64, 56 * 56
	x := make([]uint8, c*hw)
	y := make([]uint8, c*hw)
	for i := range x {
		x[i], y[i] = uint8(i*7), uint8(i*13+5)
	}
	xt := func() *tensor { return qu8([]int{1, c, 56, 56}, x...) }
	yt := func() *tensor { return qu8([]int{1, c, 56, 56}, y...) }
	const m, k, n = 128, 768, 768
	a := make([]float32, m*k)
	for i := range a {
		a[i] = float32(i%29)*0.1 - 1.4
	}
	aq := make([]uint8, m*k)
	for i := range aq {
		aq[i] = uint8(i * 11)
	}
	w := make([]int8, k*n)
	for i := range w {
		w[i] = int8(i * 7)
	}
	bin := []string{"a", "sa", "za", "b", "sb", "zb", "sc", "zc"}
	lut := []string{"x", "xs", "xz", "ys", "yz"}
	cases := []struct {
		name string
		nc   nodeCase
		ins  []*tensor
	}{
		{"QLinearAdd", nodeCase{node: msNode("QLinearAdd", bin), consts: []int{1, 2, 4, 5, 6, 7}},
			[]*tensor{xt(), qf(nil, 0.03), qu8(nil, 100), yt(), qf(nil, 0.02), qu8(nil, 90), qf(nil, 0.05), qu8(nil, 128)}},
		{"QLinearMul", nodeCase{node: msNode("QLinearMul", bin), consts: []int{1, 2, 4, 5, 6, 7}},
			[]*tensor{xt(), qf(nil, 0.03), qu8(nil, 100), yt(), qf(nil, 0.02), qu8(nil, 90), qf(nil, 0.5), qu8(nil, 128)}},
		{"QLinearAdd1000", nodeCase{node: msNode("QLinearAdd", bin), consts: []int{1, 2, 4, 5, 6, 7}},
			[]*tensor{qu8([]int{1000}, x[:1000]...), qf(nil, 0.03), qu8(nil, 100), qu8([]int{1000}, y[:1000]...), qf(nil, 0.02), qu8(nil, 90), qf(nil, 0.05), qu8(nil, 128)}},
		{"QLinearMul1000", nodeCase{node: msNode("QLinearMul", bin), consts: []int{1, 2, 4, 5, 6, 7}},
			[]*tensor{qu8([]int{1000}, x[:1000]...), qf(nil, 0.03), qu8(nil, 100), qu8([]int{1000}, y[:1000]...), qf(nil, 0.02), qu8(nil, 90), qf(nil, 0.5), qu8(nil, 128)}},
		{"QLinearSigmoid", nodeCase{node: msNode("QLinearSigmoid", lut), consts: []int{1, 2, 3, 4}},
			[]*tensor{xt(), qf(nil, 0.05), qu8(nil, 128), qf(nil, 1.0/256), qu8(nil, 0)}},
		{"QLinearGlobalAveragePool", nodeCase{node: msNode("QLinearGlobalAveragePool", lut), consts: []int{1, 2, 3, 4}},
			[]*tensor{xt(), qf(nil, 0.05), qu8(nil, 128), qf(nil, 0.04), qu8(nil, 120)}},
		{"QGemm", nodeCase{node: msNode("QGemm", []string{"a", "as", "az", "b", "bs", "bz", "c", "ys", "yz"}), outTypes: []payload.DType{payload.Uint8}, consts: []int{1, 2, 3, 4, 5, 7, 8}},
			[]*tensor{qu8([]int{m, k}, aq...), qf(nil, 0.02), qu8(nil, 128), qs8([]int{k, n}, w...), qf(nil, 0.001), qs8(nil, 0), qi([]int{n}, make([]int32, n)...), qf(nil, 0.3), qu8(nil, 128)}},
		{"MatMulIntegerToFloat", nodeCase{node: msNode("MatMulIntegerToFloat", []string{"a", "b", "as", "bs", "az", "bz"}), outTypes: f32T, consts: []int{1, 2, 3, 4, 5}},
			[]*tensor{qu8([]int{m, k}, aq...), qs8([]int{k, n}, w...), qf(nil, 0.02), qf(nil, 0.001), qu8(nil, 128), qs8(nil, 0)}},
		{"DynamicQuantizeMatMul", nodeCase{node: msNode("DynamicQuantizeMatMul", []string{"a", "b", "bs", "bz"}), outTypes: f32T, consts: []int{1, 2, 3}},
			[]*tensor{qf([]int{m, k}, a...), qs8([]int{k, n}, w...), qf(nil, 0.001), qs8(nil, 0)}},
	}
	for _, cs := range cases {
		b.Run(cs.name, func(b *testing.B) {
			step := newStepper(b, cs.nc, cs.ins...)
			step()
			b.ResetTimer()
			for b.Loop() {
				step()
			}
		})
	}
}
