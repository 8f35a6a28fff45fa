//go:build !amd64 || purego

package cpu

// transpose8 is transpose8Go: this build has no assembly for it.
func transpose8(dst, src []float32, stride, n, k int) { transpose8Go(dst, src, stride, n, k) }

// untranspose8 is untranspose8Go: this build has no assembly for it.
func untranspose8(dst []float32, stride int, src []float32, n, k int) {
	untranspose8Go(dst, stride, src, n, k)
}

// dwTile is dwTileGo: this build has no assembly for it.
func dwTile(dst []float32, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	dwTileGo(dst, n, rows, dstride, src, sstride, step, offs, w, bias)
}
