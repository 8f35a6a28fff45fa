package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxPool2x2MatchesLoop checks maxPool2x2 at stride 2 (assembly where
// the CPU has it) bit for bit against the plain running maximum, on
// every length up to 40 with guard cells, with NaNs and signed zeros.
func TestMaxPool2x2MatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1))}
	const guard = 2
	lowest := float32(-math.MaxFloat32)
	for n := range 41 {
		r0, r1 := make([]float32, 2*n+1), make([]float32, 2*n+1)
		for _, row := range [][]float32{r0, r1} {
			for i := range row {
				row[i] = r.Float32()*2 - 1
				if r.IntN(6) == 0 {
					row[i] = specials[r.IntN(len(specials))]
				}
			}
		}
		got := make([]float32, n+2*guard)
		for i := range got {
			got[i] = 9
		}
		maxPool2x2(got[guard:guard+n], r0, r1, 2, lowest)
		for i := range got {
			want := float32(9)
			if i >= guard && i < guard+n {
				j := 2 * (i - guard)
				want = lowest
				for _, v := range []float32{r0[j], r0[j+1], r1[j], r1[j+1]} {
					if v > want {
						want = v
					}
				}
			}
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Fatalf("n=%d: element %d is %v, want %v", n, i-guard, got[i], want)
			}
		}
	}
}
