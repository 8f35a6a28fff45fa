package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaxPool2x2MatchesLoop checks maxPool2x2 at stride 2 (assembly where
// the CPU has it) bit for bit against the plain running maximum, on
// every length up to 70 with guard cells, with NaNs, -Inf and signed
// zeros (AVX2, and AVX-512 where the CPU has it).
func TestMaxPool2x2MatchesLoop(t *testing.T) {
	needAsm(t)
	forPoolWidths(t, testMaxPool2x2MatchesLoop)
}

// testMaxPool2x2MatchesLoop is TestMaxPool2x2MatchesLoop for the kernels
// selected now.
func testMaxPool2x2MatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1))}
	const guard = 2
	lowest := float32(-math.MaxFloat32)
	for n := range 71 {
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

// TestMaxPool2x2RowsMatchesRowByRow checks the whole-row 2×2 stride-2
// pooling (assembly where the CPU has it) bit for bit against maxPool2x2
// row by row, with guard cells after the output, on exact and odd input
// heights and widths and output rows of whole and odd sixteens (AVX2,
// and AVX-512 where the CPU has it).
func TestMaxPool2x2RowsMatchesRowByRow(t *testing.T) {
	needAsm(t)
	forPoolWidths(t, testMaxPool2x2RowsMatchesRowByRow)
}

// testMaxPool2x2RowsMatchesRowByRow is TestMaxPool2x2RowsMatchesRowByRow
// for the kernels selected now.
func testMaxPool2x2RowsMatchesRowByRow(t *testing.T) {
	tests := []struct{ planes, oh, ow, ih, iw int }{
		{1, 1, 8, 2, 16},
		{3, 4, 8, 8, 16},
		{2, 3, 16, 7, 33},
		{16, 16, 16, 32, 32},
		{2, 2, 5, 4, 10},
		{3, 5, 24, 10, 48},
		{2, 3, 32, 6, 64},
		{2, 3, 40, 7, 81},
		{1, 2, 56, 4, 112},
	}
	r := rand.New(rand.NewPCG(14, 15))
	specials := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1))}
	lowest := float32(-math.MaxFloat32)
	const guard = 3
	for _, tc := range tests {
		inSz, outSz := tc.ih*tc.iw, tc.oh*tc.ow
		x := make([]float32, tc.planes*inSz)
		for i := range x {
			x[i] = r.Float32()*2 - 1
			if r.IntN(6) == 0 {
				x[i] = specials[r.IntN(len(specials))]
			}
		}
		got := make([]float32, tc.planes*outSz+guard)
		for i := range got {
			got[i] = 9
		}
		if !maxPool2x2Rows(tc.planes, x, got[:tc.planes*outSz], inSz, outSz, tc.oh, tc.ow, tc.ih, tc.iw, lowest) {
			if hasAVX2FMA && tc.ow%8 == 0 {
				t.Errorf("%+v: not taken", tc)
			}
			continue
		}
		want := make([]float32, len(got))
		for i := range want {
			want[i] = 9
		}
		for p := range tc.planes {
			for oh := range tc.oh {
				xp := x[p*inSz:]
				maxPool2x2(want[p*outSz+oh*tc.ow:p*outSz+(oh+1)*tc.ow], xp[2*oh*tc.iw:(2*oh+1)*tc.iw], xp[(2*oh+1)*tc.iw:(2*oh+2)*tc.iw], 2, lowest)
			}
		}
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%+v: element %d is %v, want %v", tc, i, got[i], want[i])
			}
		}
	}
}
