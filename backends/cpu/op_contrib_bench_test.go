package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// BenchmarkMatMulNBits times a 4-bit MatMulNBits against MatMul with
// the same weights in float32 (constant, packed at load), at decoding
// (1 row) and prompt (32 rows) sizes.
func BenchmarkMatMulNBits(b *testing.B) {
	const k, n, bs = 2048, 2048, 32
	kb := k / bs
	q := make([]uint8, n*kb*bs/2)
	for i := range q {
		q[i] = uint8(i*37 + i>>5)
	}
	sc := make([]float32, n*kb)
	for i := range sc {
		sc[i] = 0.01 + float32(i%7)*0.001
	}
	w := make([]float32, k*n)
	for i := range w {
		w[i] = float32(i%13) * 0.01
	}
	for _, m := range []int{1, 32} {
		a := mk([]int{m, k}, make([]float32, m*k))
		nb := nodeCase{node: msNode("MatMulNBits", []string{"a", "b", "s"}, aInt("K", k), aInt("N", n), aInt("bits", 4), aInt("block_size", bs)), consts: []int{1, 2}}
		mm := nodeCase{node: node("MatMul", []string{"a", "w"}), consts: []int{1}}
		for _, c := range []struct {
			name string
			nc   nodeCase
			ins  []*tensor
		}{
			{"nbits", nb, []*tensor{a, mk([]int{n, kb, bs / 2}, q), mk([]int{n * kb}, sc)}},
			{"float", mm, []*tensor{a, mk([]int{k, n}, w)}},
		} {
			b.Run(fmt.Sprintf("%s/m%d", c.name, m), func(b *testing.B) {
				step := newStepper(b, c.nc, c.ins...)
				step()
				b.ResetTimer()
				for b.Loop() {
					step()
				}
			})
		}
	}
	_ = model.MSDomain
}
