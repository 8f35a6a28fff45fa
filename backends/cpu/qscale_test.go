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

// TestQScaleRowsInPlaceMatchesGo compares qScaleRowsInPlace with
// qScaleRowGo row by row, bit for bit, on blocks of rows inside a wider
// matrix, for one multiplier or one a column, with and without bias;
// the cells outside the block must stay as they were.
func TestQScaleRowsInPlaceMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 7, 8, 9, 32, 45} {
		for _, rows := range []int{1, 3, 8} {
			ld := n + 5
			mult, bias := make([]float32, n), make([]float32, n)
			for i := range mult {
				mult[i] = float32(r.NormFloat64() * 1e-3)
				bias[i] = float32(r.NormFloat64())
			}
			for _, c := range []struct {
				name       string
				mult, bias []float32
			}{{"one", mult[:1], nil}, {"one+bias", mult[:1], bias}, {"columns", mult, nil}, {"columns+bias", mult, bias}} {
				acc := make([]int32, (rows+2)*ld)
				for i := range acc {
					acc[i] = int32(r.Uint32())
				}
				orig := append([]int32(nil), acc...)
				qScaleRowsInPlace(acc[ld+2:], ld, rows, n, c.mult, c.bias)
				got := f32Alias(acc)
				for i := range acc {
					row, col := i/ld-1, i%ld-2
					if row < 0 || row >= rows || col < 0 || col >= n {
						if acc[i] != orig[i] {
							t.Fatalf("%s n=%d rows=%d: cell %d outside the block changed", c.name, n, rows, i)
						}
						continue
					}
					want := make([]float32, 1)
					m := c.mult
					if len(m) > 1 {
						m = m[col:]
					}
					var b []float32
					if c.bias != nil {
						b = c.bias[col:]
					}
					qScaleRowGo(want, orig[i:i+1], m, b)
					if math.Float32bits(got[i]) != math.Float32bits(want[0]) {
						t.Fatalf("%s n=%d rows=%d: [%d][%d] = %g, want %g", c.name, n, rows, row, col, got[i], want[0])
					}
				}
			}
		}
	}
}
