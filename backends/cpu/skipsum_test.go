package cpu

import (
	"fmt"
	"math"
	"runtime"
	"testing"
)

// TestSkipSumMatchesGo checks skipSum (AVX where the CPU has it) against
// skipSumGo on random rows of every length to 40 and some longer, with
// and without a bias: the same y and the same bits of both sums, and y's
// guard cells untouched.
func TestSkipSumMatchesGo(t *testing.T) {
	needAsm(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("no assembly on this architecture: the Go twin would be compared with itself")
	}
	r := nnRng(5)
	lengths := []int{384, 768, 1000}
	for n := 1; n <= 40; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, withBias := range []bool{false, true} {
			t.Run(fmt.Sprintf("n%d bias%t", n, withBias), func(t *testing.T) {
				x, skip := nnRand(r, n), nnRand(r, n)
				var bias []float32
				if withBias {
					bias = nnRand(r, n)
				}
				const guard = 5
				got := make([]float32, n+guard)
				want := make([]float32, n)
				for i := range got {
					got[i] = -7
				}
				gs, gq := skipSum(got[:n], x, skip, bias)
				ws, wq := skipSumGo(want, x, skip, bias)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("y[%d]: got %v, want %v", i, got[i], want[i])
					}
				}
				for i, v := range got[n:] {
					if v != -7 {
						t.Fatalf("guard cell %d: got %v, want -7", i, v)
					}
				}
				if math.Float64bits(gs) != math.Float64bits(ws) || math.Float64bits(gq) != math.Float64bits(wq) {
					t.Fatalf("sums: got %v, %v, want %v, %v", gs, gq, ws, wq)
				}
			})
		}
	}
}
