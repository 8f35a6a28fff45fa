package cpu

import (
	"math"
	"testing"
)

// TestRowBlocks4MatchesOneRowKernel checks rowBlocks4 (assembly where the
// CPU has it) bit for bit against four calls of the one-row kernel, with
// guard cells around the sums, for several block lengths and strides.
func TestRowBlocks4MatchesOneRowKernel(t *testing.T) {
	needAsm(t)
	tests := []struct{ kc, bstride int }{
		{1, 16}, {7, 7 * 16}, {33, 40 * 16}, {256, 256 * 32},
	}
	r := nnRng(21)
	const guard = 8
	for _, tc := range tests {
		a := nnRand(r, 4*tc.kc)
		b := nnRand(r, 3*tc.bstride+tc.kc*gemmNR)
		got := make([]float32, 4*gemmNR+2*guard)
		want := make([]float32, len(got))
		for i := range got {
			got[i], want[i] = 7, 7
		}
		rowBlocks4(tc.kc, &a[0], &b[0], tc.bstride, &got[guard])
		rowBlocks4Go(tc.kc, &a[0], &b[0], tc.bstride, &want[guard])
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("kc %d: element %d is %v, want %v", tc.kc, i-guard, got[i], want[i])
			}
		}
	}
}
