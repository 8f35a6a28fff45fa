package cpu

import (
	"fmt"
	"testing"
)

// BenchmarkEwMath times ewMath32's exp and tanh on slices of a small
// and a large activation.
func BenchmarkEwMath(b *testing.B) {
	for _, op := range []ewmOp{ewmExp, ewmTanh} {
		for _, n := range []int{64 * 28 * 28, 64 * 112 * 112} {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(i%2000)/100 - 10
			}
			d := make([]float32, n)
			b.Run(fmt.Sprintf("%s/%d", ewmNames[op], n), func(b *testing.B) {
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					ewMath32(op, d, x)
				}
			})
		}
	}
}
