package cpu

import (
	"fmt"
	"testing"
)

// BenchmarkSoftmaxRow times one float32 Softmax row and its three
// passes.
func BenchmarkSoftmaxRow(b *testing.B) {
	for _, n := range []int{64, 192, 197, 200, 1000} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(i%37)/5 - 3
		}
		d := make([]float32, n)
		b.Run(fmt.Sprintf("row/%d", n), func(b *testing.B) {
			for b.Loop() {
				softmaxRow(d, x, false)
			}
		})
		b.Run(fmt.Sprintf("max/%d", n), func(b *testing.B) {
			for b.Loop() {
				maxNaN32(x)
			}
		})
		b.Run(fmt.Sprintf("exp/%d", n), func(b *testing.B) {
			for b.Loop() {
				expSub32(d, x, 5)
			}
		})
		b.Run(fmt.Sprintf("scale/%d", n), func(b *testing.B) {
			for b.Loop() {
				mulConst32(d, 1.0001)
			}
		})
	}
}
