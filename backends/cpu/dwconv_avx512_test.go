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

// TestDw3x3MatchesDwRow checks the 3×3 kernel, which loads each input row
// once and shifts it, against the 512-bit row kernel with the same taps
// (kh·pitch + kw) bit for bit, on lengths across its 128- and 16-element
// blocks and pitches of every residue, with guard cells around the
// output; and that dw3x3Row falls back to the row kernel when base lacks
// the slack the 3×3 kernel reads.
func TestDw3x3MatchesDwRow(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("the CPU lacks AVX-512 or AVX2+FMA")
	}
	defer func(v bool) { dwRow512 = v }(dwRow512)
	dwRow512 = true
	r := rand.New(rand.NewPCG(9, 3))
	const guard = 5
	for _, pitch := range []int{3, 16, 17, 30, 58, 64, 113} {
		offs := []int{0, 1, 2, pitch, pitch + 1, pitch + 2, 2 * pitch, 2*pitch + 1, 2*pitch + 2}
		for _, n := range []int{0, 16, 32, 112, 128, 144, 256, 272, 400, 21, 135} {
			for _, slack := range []int{16, 2} {
				base := make([]float32, n+2*pitch+slack)
				for i := range base {
					base[i] = r.Float32()*2 - 1
				}
				w := make([]float32, 9)
				for i := range w {
					w[i] = r.Float32()*2 - 1
				}
				bias := r.Float32() - 0.5
				got, want := filledF32(n+2*guard, 7), filledF32(n+2*guard, 7)
				dw3x3Row(got[guard:guard+n], base, offs, pitch, w, bias)
				if n > 0 {
					dwRowTrusted(want[guard:guard+n], base, offs, w, bias)
				}
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("pitch=%d n=%d slack=%d: element %d is %v, want %v", pitch, n, slack, i-guard, got[i], want[i])
					}
				}
			}
		}
	}
}
