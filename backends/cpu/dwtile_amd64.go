//go:build amd64 && !purego

package cpu

//go:noescape
func transpose8AVX(dst, src *float32, stride, n, lanes int)

//go:noescape
func untranspose8AVX(dst *float32, stride int, src *float32, n, lanes int)

//go:noescape
func dwTileAVX(dst *float32, n, rows, dstride int, src *float32, sstride, step int, offs *int, w *float32, taps int, bias *float32)

//go:noescape
func transpose16AVX512(dst, src *float32, stride, n int)

//go:noescape
func untranspose16AVX512(dst *float32, stride int, src *float32, n int)

//go:noescape
func dwTile16AVX512(dst *float32, n, rows, dstride int, src *float32, sstride, step int, offs *int, w *float32, taps int, bias *float32)

// dwTileWide reports whether dwTilePlan takes sixteen channels a block
// (pixels of one 512-bit vector), where 512-bit vectors run at full
// width; decided once at init, tests switch it to compare both widths.
var dwTileWide = wide512

// dwTileLanes returns the channels of dwTilePlan's full blocks: 16 where
// dwTileWide, else 8.
func dwTileLanes() int {
	if dwTileWide {
		return 16
	}
	return 8
}

// transposeLanes is transposeGo, in assembly where the CPU has AVX2 and
// all lanes (8 or 16) are there: sixteen lanes in 16×16 blocks on
// AVX-512 when n >= 16, else eight channels at a time.
func transposeLanes(dst, src []float32, lanes, stride, n, k int) {
	if !hasAVX2FMA || k != lanes || n <= 0 || (lanes != 8 && lanes != 16) {
		transposeGo(dst, src, lanes, stride, n, k)
		return
	}
	_, _ = dst[lanes*(n-1)+lanes-1], src[(lanes-1)*stride+n-1]
	if lanes == 16 && n >= 16 && hasAVX512 {
		transpose16AVX512(&dst[0], &src[0], stride, n)
		return
	}
	transpose8AVX(&dst[0], &src[0], stride, n, lanes)
	if lanes == 16 {
		transpose8AVX(&dst[8], &src[8*stride], stride, n, lanes)
	}
}

// untransposeLanes is untransposeGo, in assembly where the CPU has AVX2
// and all lanes (8 or 16) are there: sixteen lanes in 16×16 blocks on
// AVX-512 when n >= 16, else eight channels at a time.
func untransposeLanes(dst []float32, stride int, src []float32, lanes, n, k int) {
	if !hasAVX2FMA || k != lanes || n <= 0 || (lanes != 8 && lanes != 16) {
		untransposeGo(dst, stride, src, lanes, n, k)
		return
	}
	_, _ = dst[(lanes-1)*stride+n-1], src[lanes*(n-1)+lanes-1]
	if lanes == 16 && n >= 16 && hasAVX512 {
		untranspose16AVX512(&dst[0], stride, &src[0], n)
		return
	}
	untranspose8AVX(&dst[0], stride, &src[0], n, lanes)
	if lanes == 16 {
		untranspose8AVX(&dst[8*stride], stride, &src[8], n, lanes)
	}
}

// dwTile is dwTileGo, in assembly where the CPU has AVX2 and FMA (eight
// lanes) or AVX-512 (sixteen): the last n mod 8 pixels of a row of
// n >= 8 as one more block ending at n, which recomputes (to the same
// values) some of the previous block's.
func dwTile(dst []float32, lanes, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	if n < 8 || rows <= 0 || len(offs) == 0 || !(lanes == 8 && hasAVX2FMA || lanes == 16 && hasAVX512) {
		dwTileGo(dst, lanes, n, rows, dstride, src, sstride, step, offs, w, bias)
		return
	}
	dwTileCheck(dst, lanes, n, rows, dstride, src, sstride, step, offs, w, bias)
	if lanes == 16 {
		dwTile16AVX512(&dst[0], n, rows, dstride, &src[0], sstride, step, &offs[0], &w[0], len(offs), &bias[0])
		return
	}
	dwTileAVX(&dst[0], n, rows, dstride, &src[0], sstride, step, &offs[0], &w[0], len(offs), &bias[0])
}
