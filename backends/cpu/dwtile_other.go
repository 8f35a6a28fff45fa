//go:build !amd64 || purego

package cpu

// dwTileLanes returns the channels of dwTilePlan's full blocks: eight,
// this build having no wider kernels.
func dwTileLanes() int { return 8 }

// transposeLanes is transposeGo: this build has no assembly for it.
func transposeLanes(dst, src []float32, lanes, stride, n, k int) {
	transposeGo(dst, src, lanes, stride, n, k)
}

// untransposeLanes is untransposeGo: this build has no assembly for it.
func untransposeLanes(dst []float32, stride int, src []float32, lanes, n, k int) {
	untransposeGo(dst, stride, src, lanes, n, k)
}

// dwTile is dwTileGo: this build has no assembly for it.
func dwTile(dst []float32, lanes, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	dwTileGo(dst, lanes, n, rows, dstride, src, sstride, step, offs, w, bias)
}
