//go:build (!amd64 && !arm64) || purego

package cpu

// dwRowTrusted is dwRowGo: this build has no assembly.
func dwRowTrusted(dst, base []float32, offs []int, w []float32, bias float32) {
	dwRowGo(dst, base, offs, w, bias)
}

// dwRow computes one output row of a depthwise convolution: see dwRowGo.
func dwRow(dst, base []float32, offs []int, w []float32, bias float32) {
	dwRowGo(dst, base, offs, w, bias)
}

// gather16 is gather16Go: this build has no assembly.
func gather16(dst, base []float32, offs []int, add int) { gather16Go(dst, base, offs, add) }

// copyRows16 is copyRows16Go: this build has no assembly.
func copyRows16(dst, src []float32, ld, rows int) { copyRows16Go(dst, src, ld, rows) }

// copyStrided is copyStridedGo: this build has no assembly.
func copyStrided(dst []float32, dstride int, src []float32, sstride, n, rows int) {
	copyStridedGo(dst, dstride, src, sstride, n, rows)
}

// deinterleaveRows is deinterleaveRowsGo: this build has no assembly.
func deinterleaveRows(even, odd []float32, dstride int, src []float32, sstride, n, rows int) {
	deinterleaveRowsGo(even, odd, dstride, src, sstride, n, rows)
}

// dw3x3Row is dwRowTrusted: this build has no 3×3 kernel of its own.
func dw3x3Row(dst, base []float32, offs []int, pitch int, w []float32, bias float32) {
	dwRowTrusted(dst, base, offs, w, bias)
}
