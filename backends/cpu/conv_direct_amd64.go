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

// The AVX-512 twins (convDirZR<r>, r up to 12): the same tiles and
// bits, one ZMM register per channel and tile, two tiles at a time;
// mask holds the lanes of each row's last tile to store.

//go:noescape
func convDirZR1(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR2(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR3(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR4(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR5(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR6(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR7(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR8(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR9(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR10(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR11(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

//go:noescape
func convDirZR12(kc int, a, x *float32, offs *int, c *float32, ldc int, flags int, bias *float32, rows, tiles, xrow, crow int, mask int)

// directAVX512 selects the AVX-512 direct kernels: where 512-bit vectors
// run at full width (wide512, decided once at init; tests switch it to
// compare both).
var directAVX512 = wide512

// directKernel computes r channels by rows×tiles tiles of directNR
// outputs (see directGo): the AVX-512 kernel where 512-bit vectors run
// at full width (directAVX512), else the AVX2 one where the CPU has AVX2 and FMA
// (hasAVX2FMA), directGo otherwise. The caller checks every address.
func directKernel(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow int) {
	if !hasAVX2FMA {
		directGo(r, kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow)
		return
	}
	if directAVX512 {
		directZ(r, kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, 0xffff)
		return
	}
	if r > 6 {
		// Blocks past six channels are the AVX-512 kernels' (directMR);
		// with those switched off (tests), the Go kernel.
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

// directZ runs the AVX-512 kernel for r channels, storing the lanes of
// mask of each row's last tile.
func directZ(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow, mask int) {
	switch r {
	case 1:
		convDirZR1(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 2:
		convDirZR2(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 3:
		convDirZR3(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 4:
		convDirZR4(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 5:
		convDirZR5(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 6:
		convDirZR6(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 7:
		convDirZR7(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 8:
		convDirZR8(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 9:
		convDirZR9(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 10:
		convDirZR10(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 11:
		convDirZR11(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	case 12:
		convDirZR12(kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, mask)
	default:
		panic("direct conv: channel block out of range")
	}
}

// directKernelRows is directKernel over rows of tiles whose last holds
// only last (1 to directNR) outputs: the reads past a row's end must stay
// in x's slack. It reports false, computing nothing, where the kernels in
// use store whole tiles only (then the caller computes the last tile
// apart).
func directKernelRows(r, kc int, a, x *float32, offs *int, c *float32, ldc, flags int, bias *float32, rows, tiles, xrow, crow, last int) bool {
	if !directAVX512 {
		return false
	}
	directZ(r, kc, a, x, offs, c, ldc, flags, bias, rows, tiles, xrow, crow, 1<<last-1)
	return true
}

// directBlockMax is directMR: 12 with the AVX-512 kernels, else 6.
func directBlockMax() int {
	if directAVX512 {
		return directMaxR
	}
	return 6
}
