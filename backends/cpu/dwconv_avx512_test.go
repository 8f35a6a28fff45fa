//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDwRowAVX512MatchesAVX2 checks that the 512-bit depthwise row kernel
// gives the AVX2 kernel's bits (same FMAs in the same order) on lengths
// across its 128- and 16-element blocks, with guard cells around the
// output.
func TestDwRowAVX512MatchesAVX2(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("the CPU lacks AVX-512 or AVX2+FMA")
	}
	defer func(v bool) { dwRow512 = v }(dwRow512)
	r := rand.New(rand.NewPCG(5, 7))
	const guard = 5
	for _, taps := range []int{1, 3, 9, 25} {
		for _, n := range []int{1, 15, 16, 17, 127, 128, 129, 144, 255, 300} {
			base, offs, w, bias := dwRowCase(r, 600, taps, n)
			got, want := filledF32(n+2*guard, 7), filledF32(n+2*guard, 7)
			dwRow512 = true
			dwRow(got[guard:guard+n], base, offs, w, bias)
			dwRow512 = false
			dwRow(want[guard:guard+n], base, offs, w, bias)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("taps=%d n=%d: element %d is %v, want %v", taps, n, i-guard, got[i], want[i])
				}
			}
		}
	}
}
