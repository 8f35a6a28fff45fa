package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQScaleRowMatchesGo compares qScaleRow with qScaleRowGo bit for bit
// for one multiplier or one a column, with and without bias, on lengths
// around the kernel's step of 8, checking the floats past the row stay
// untouched.
func TestQScaleRowMatchesGo(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no scaling kernel in this build (qScaleRow is qScaleRowGo)")
	}
	const guard = 4
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 8, 9, 16, 63, 256} {
		acc := make([]int32, n)
		mult, bias := make([]float32, n), make([]float32, n)
		for i := range acc {
			acc[i] = int32(r.Uint32())
			mult[i] = float32(r.NormFloat64() * 1e-3)
			bias[i] = float32(r.NormFloat64())
		}
		acc[0] = 0
		cases := []struct {
			name       string
			mult, bias []float32
		}{
			{"one", mult[:1], nil},
			{"one+bias", []float32{-mult[0]}, bias},
			{"columns", mult, nil},
			{"columns+bias", mult, bias},
		}
		for _, c := range cases {
			got := make([]float32, n+guard)
			want := make([]float32, n)
			for i := range got {
				got[i] = float32(math.NaN())
			}
			qScaleRow(got[:n], acc, c.mult, c.bias)
			qScaleRowGo(want, acc, c.mult, c.bias)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s n=%d: y[%d] = %g, want %g", c.name, n, i, got[i], want[i])
				}
			}
			for i := n; i < len(got); i++ {
				if got[i] == got[i] {
					t.Fatalf("%s n=%d: float %d past the row changed to %g", c.name, n, i, got[i])
				}
			}
		}
	}
}
