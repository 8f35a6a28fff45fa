package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAffine32 wants affine32 (AVX where the CPU has it) to give
// affineGo's bits on every length, special values included, leaving the
// guard cells around the output alone.
func TestAffine32(t *testing.T) {
	if !asmRuns() {
		t.Skip("no assembly in this build: affine32 is affineGo")
	}
	r := rand.New(rand.NewPCG(37, 38))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, 3e38}
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 63, 100, 257} {
		for _, ab := range [][2]float32{{1.5, -0.25}, {0, 0}, {-3, 1e30}, {float32(math.Inf(1)), 1}} {
			x := randF32s(r, n, 100)
			for i := range x {
				if r.IntN(8) == 0 {
					x[i] = special[r.IntN(len(special))]
				}
			}
			got := make([]float32, n+2)
			got[0], got[n+1] = poolGuard, poolGuard
			want := make([]float32, n)
			affine32(got[1:n+1], x, ab[0], ab[1])
			affineGo(want, x, ab[0], ab[1])
			if got[0] != poolGuard || got[n+1] != poolGuard {
				t.Fatalf("n=%d: guard cells overwritten", n)
			}
			for i := range want {
				if math.Float32bits(got[i+1]) != math.Float32bits(want[i]) && !(got[i+1] != got[i+1] && want[i] != want[i]) {
					t.Fatalf("n=%d a=%v b=%v: element %d (x=%v) = %v, want %v", n, ab[0], ab[1], i, x[i], got[i+1], want[i])
				}
			}
		}
	}
}
