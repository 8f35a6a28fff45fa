//go:build amd64 && !purego

package cpu

//go:generate go run conv_direct_gen.go

// The AVX2+FMA direct convolution kernels of conv_direct_amd64.s: r
// output channels by rows×tiles tiles of directNR outputs, as directGo.

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
// outputs (see directGo): the assembly
// kernel where the CPU has AVX2 and FMA (decided once at init in
// hasAVX2FMA), directGo otherwise. The caller checks every address.
func directKernel(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow int) {
	if !hasAVX2FMA {
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

//go:noescape
func copyRowsAVX(dst *float32, dstride int, src *float32, n, rows int)

// copyRows is copyRowsGo, in assembly where the CPU has AVX2.
func copyRows(dst []float32, dstride int, src []float32, n, rows int) {
	if !hasAVX2FMA || rows == 0 || n == 0 {
		copyRowsGo(dst, dstride, src, n, rows)
		return
	}
	_, _ = dst[(rows-1)*dstride+n-1], src[rows*n-1]
	copyRowsAVX(&dst[0], dstride, &src[0], n, rows)
}
