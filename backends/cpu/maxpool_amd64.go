//go:build amd64 && !purego

package cpu

//go:noescape
func maxPool2x2S2AVX(dst *float32, n int, r0, r1 *float32, lowest float32)

// maxPool512Min is the fewest outputs a row the sixteen-lane 2×2 stride-2
// MaxPool takes; shorter rows go to the AVX2 kernel. On Zen 5, with the
// rows in L2, the AVX-512 kernel was 7-10% slower on rows of 24 outputs
// (0.98-1.29x at 8) and equal from 56 on; in L1 it is about twice as
// fast from 56 on. Tests lower it to check the kernel on every row.
var maxPool512Min = 32

//go:noescape
func maxPool2x2S2AVX512(dst *float32, n int, r0, r1 *float32, lowest float32)

//go:noescape
func maxPool2x2S2RowsAVX512(dst *float32, n, rows int, x *float32, iw int, lowest float32)

// maxPool2x2S2 is maxPool2x2 with stride 2 for float32, in AVX-512 or
// AVX where the CPU has it; it returns how many leading outputs it
// computed (whole eights).
func maxPool2x2S2(dst, r0, r1 []float32, lowest float32) int {
	n := avxSplit(dst)
	if n == 0 {
		return 0
	}
	_, _ = r0[2*n-1], r1[2*n-1]
	if poolAVX512 && n >= maxPool512Min {
		maxPool2x2S2AVX512(&dst[0], n, &r0[0], &r1[0], lowest)
		return n
	}
	maxPool2x2S2AVX(&dst[0], n, &r0[0], &r1[0], lowest)
	return n
}

//go:noescape
func maxPool2x2S2RowsAVX(dst *float32, n, rows int, x *float32, iw int, lowest float32)

// maxPool2x2S2Rows sets rows output rows of n floats, dst[r*n:(r+1)*n],
// to maxPool2x2 at stride 2 of input rows 2r and 2r+1 of x (iw floats
// each, iw >= 2n), in one AVX-512 or AVX call. It reports false,
// computing nothing, when the CPU lacks AVX or n is not a multiple of 8.
func maxPool2x2S2Rows(dst, x []float32, n, rows, iw int, lowest float32) bool {
	if !hasAVX || n%8 != 0 || n == 0 || rows == 0 || iw < 2*n {
		return false
	}
	_, _ = dst[rows*n-1], x[(2*rows-1)*iw+2*n-1]
	if poolAVX512 && n >= maxPool512Min {
		maxPool2x2S2RowsAVX512(&dst[0], n, rows, &x[0], iw, lowest)
		return true
	}
	maxPool2x2S2RowsAVX(&dst[0], n, rows, &x[0], iw, lowest)
	return true
}

// maxPool2x2S2RowsFits reports whether maxPool2x2S2Rows computes output
// rows of n floats.
func maxPool2x2S2RowsFits(n int) bool { return hasAVX && n%8 == 0 && n > 0 }
