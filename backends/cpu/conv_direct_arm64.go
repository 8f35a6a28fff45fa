//go:build arm64 && !purego

package cpu

// The NEON direct convolution kernels of conv_direct_arm64.s (generated
// by neon_gen.go): r output channels by rows×tiles tiles of directNR
// outputs, as directGo, with the FMLAs of the NEON SGEMM kernels, so the
// direct and im2col paths give the same bits.

//go:noescape
func convDirR1(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int)

//go:noescape
func convDirR2(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int)

//go:noescape
func convDirR3(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int)

//go:noescape
func convDirR4(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int)

//go:noescape
func convDirR5(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int)

//go:noescape
func convDirR6(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int)

// directKernel computes r channels by rows×tiles tiles of directNR
// outputs (see directGo): the NEON kernel where the CPU has ASIMD
// (hasNEON, read once), directGo otherwise, which goes with the Go
// SGEMM kernels then. The caller checks every address.
func directKernel(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow int) {
	if !hasNEON {
		directGo(r, kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
		return
	}
	switch r {
	case 1:
		convDirR1(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
	case 2:
		convDirR2(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
	case 3:
		convDirR3(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
	case 4:
		convDirR4(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
	case 5:
		convDirR5(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
	case 6:
		convDirR6(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
	default:
		panic("direct conv: channel block out of range")
	}
}

// copyRows is copyRowsGo: this build has no NEON version.
func copyRows(dst []float32, dstride int, src []float32, n, rows int) {
	copyRowsGo(dst, dstride, src, n, rows)
}

// directKernelRows reports false: this build's kernels store whole tiles
// only.
func directKernelRows(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow, last int) bool {
	return false
}

// directBlockMax is directMR: the NEON kernels take 6 channels.
func directBlockMax() int { return 6 }
