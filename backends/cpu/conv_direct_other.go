//go:build (!amd64 && !arm64) || purego

package cpu

// directKernel is directGo: this build has no assembly.
func directKernel(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow int) {
	directGo(r, kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
}

// copyRows is copyRowsGo: this build has no assembly.
func copyRows(dst []float32, dstride int, src []float32, n, rows int) {
	copyRowsGo(dst, dstride, src, n, rows)
}

// directKernelRows reports false: this build's kernels store whole tiles
// only.
func directKernelRows(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow, last int) bool {
	return false
}

// directBlockMax is directMR: 6, as the assembly builds have.
func directBlockMax() int { return 6 }
