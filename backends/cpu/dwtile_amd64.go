//go:build amd64 && !purego

package cpu

//go:noescape
func transpose8AVX(dst, src *float32, stride, n int)

//go:noescape
func untranspose8AVX(dst *float32, stride int, src *float32, n int)

//go:noescape
func dwTileAVX(dst *float32, n, rows, dstride int, src *float32, sstride, step int, offs *int, w *float32, taps int, bias *float32)

// transpose8 is transpose8Go, in assembly where the CPU has AVX2 and
// all eight channels are there.
func transpose8(dst, src []float32, stride, n, k int) {
	if !hasAVX2FMA || k != 8 || n <= 0 {
		transpose8Go(dst, src, stride, n, k)
		return
	}
	_, _ = dst[8*n-1], src[7*stride+n-1]
	transpose8AVX(&dst[0], &src[0], stride, n)
}

// untranspose8 is untranspose8Go, in assembly where the CPU has AVX2
// and all eight channels are there.
func untranspose8(dst []float32, stride int, src []float32, n, k int) {
	if !hasAVX2FMA || k != 8 || n <= 0 {
		untranspose8Go(dst, stride, src, n, k)
		return
	}
	_, _ = dst[7*stride+n-1], src[8*n-1]
	untranspose8AVX(&dst[0], stride, &src[0], n)
}

// dwTile is dwTileGo, in assembly where the CPU has AVX2 and FMA: the
// last n mod 8 pixels of a row of n >= 8 as one more block ending at n,
// which recomputes (to the same values) some of the previous block's.
func dwTile(dst []float32, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	if !hasAVX2FMA || n < 8 || rows <= 0 || len(offs) == 0 {
		dwTileGo(dst, n, rows, dstride, src, sstride, step, offs, w, bias)
		return
	}
	dwTileCheck(dst, n, rows, dstride, src, sstride, step, offs, w, bias)
	dwTileAVX(&dst[0], n, rows, dstride, &src[0], sstride, step, &offs[0], &w[0], len(offs), &bias[0])
}
