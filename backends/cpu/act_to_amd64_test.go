//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math"
	"testing"
)

// TestActTo compares the two-operand Relu and Clip loops with a copy
// followed by the in-place activation, bit for bit, apart and in place,
// with guard cells past the end, over lengths around the vector steps
// and bounds for which the AVX loop runs and for which it does not.
func TestActTo(t *testing.T) {
	if !hasAVX {
		t.Skip("this CPU has no AVX2: both sides would be the same Go loop")
	}
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	bounds := [][2]float32{{-0.5, 0.5}, {0, 6}, {negZero, 1}, {-1, negZero}, {nan, 2}, {3, -3}}
	const guard = -77
	r := nnRng(11)
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 33, 1000} {
		x := make([]float32, n)
		for i := range x {
			x[i] = (r.Float32()*2 - 1) * 4
			switch i % 13 {
			case 3:
				x[i] = nan
			case 5:
				x[i] = negZero
			case 7:
				x[i] = 0
			}
		}
		ops := []struct {
			name string
			to   func(d, x []float32)
			in   func(d []float32)
		}{{"Relu", reluTo32, actRelu32}}
		for _, b := range bounds {
			ops = append(ops, struct {
				name string
				to   func(d, x []float32)
				in   func(d []float32)
			}{fmt.Sprintf("Clip[%v,%v]", b[0], b[1]),
				func(d, x []float32) { clipTo32(d, x, b[0], b[1]) },
				func(d []float32) { actClip32(d, b[0], b[1]) }})
		}
		for _, op := range ops {
			want := append([]float32(nil), x...)
			op.in(want)
			got := make([]float32, n+1)
			got[n] = guard
			op.to(got[:n], x)
			inPlace := append(append([]float32(nil), x...), guard)
			op.to(inPlace[:n], inPlace[:n])
			for i := range want {
				w := math.Float32bits(want[i])
				if math.Float32bits(got[i]) != w || math.Float32bits(inPlace[i]) != w {
					t.Fatalf("%s n=%d: f(%v) = %v (in place %v), want %v", op.name, n, x[i], got[i], inPlace[i], want[i])
				}
			}
			if got[n] != guard || inPlace[n] != guard {
				t.Fatalf("%s n=%d: the guard cell was written", op.name, n)
			}
		}
	}
}
