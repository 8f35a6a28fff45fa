//go:build amd64 && !purego

package cpu

import "fmt"

//go:noescape
func nbitsColsZ(y *float32, q *uint8, qstride int, ad, sc, zp *float32, zstride int, asum *float32, kb, chunks, ncols int)

//go:noescape
func nbitsColsA(y *float32, q *uint8, qstride int, ad, sc, zp *float32, zstride int, asum *float32, kb, chunks, ncols int)

// nbitsWide reports whether nbitsCols runs in assembly for blocks of bs
// values (then A must be given deinterleaved by deinterleave32): where
// the CPU has AVX2 and FMA and blocks are whole chunks of 32. The
// AVX-512 kernels run where 512-bit vectors run at full width.
func nbitsWide(bs int) bool { return hasAVX2FMA && bs >= 32 && bs%32 == 0 }

// nbitsAVX512 selects the AVX-512 kernels of nbitsCols and nibblesCol
// (wide512, decided once at init; tests switch it to compare both).
var nbitsAVX512 = wide512

// nbitsCols is nbitsColsGo; where nbitsWide(bs), in assembly, reading
// a deinterleaved (the sums then run in another order).
func nbitsCols(y []float32, q []uint8, qstride int, a, sc, zp []float32, zstride int, asum []float32, kb, bs, ncols int) {
	if !nbitsWide(bs) {
		nbitsColsGo(y, q, qstride, a, sc, zp, zstride, asum, kb, bs, ncols)
		return
	}
	if ncols <= 0 || kb <= 0 {
		clear(y[:max(ncols, 0)])
		return
	}
	last := ncols - 1
	if len(y) < ncols || len(q) < last*qstride+kb*bs/2 || len(a) < kb*bs || len(sc) < last*kb+kb ||
		len(zp) < last*zstride+kb || len(asum) < kb || qstride < kb*bs/2 || zstride < 0 {
		panic(fmt.Sprintf("nbitsCols: %d columns of %d blocks of %d, %d codes %d apart, %d values, %d scales, %d zero points %d apart, %d sums",
			ncols, kb, bs, len(q), qstride, len(a), len(sc), len(zp), zstride, len(asum)))
	}
	if nbitsAVX512 {
		nbitsColsZ(&y[0], &q[0], qstride, &a[0], &sc[0], &zp[0], zstride, &asum[0], kb, bs/32, ncols)
		return
	}
	nbitsColsA(&y[0], &q[0], qstride, &a[0], &sc[0], &zp[0], zstride, &asum[0], kb, bs/32, ncols)
}

//go:noescape
func nibblesColZ(dst *float32, q *uint8, kb, chunks int, sc, zp *float32)

//go:noescape
func nibblesColA(dst *float32, q *uint8, kb, chunks int, sc, zp *float32)

// nibblesCol dequantizes one column of kb blocks of bs codes (q, low
// nibble first) into dst: (code − zp[b])·sc[b], as nibbles4; in
// assembly where nbitsWide(bs).
func nibblesCol(dst []float32, q []uint8, kb, bs int, sc, zp []float32) {
	if !nbitsWide(bs) || kb <= 0 {
		nibblesColGo(dst, q, kb, bs, sc, zp)
		return
	}
	if len(dst) < kb*bs || len(q) < kb*bs/2 || len(sc) < kb || len(zp) < kb {
		panic(fmt.Sprintf("nibblesCol: %d blocks of %d into %d floats from %d codes, %d scales, %d zero points", kb, bs, len(dst), len(q), len(sc), len(zp)))
	}
	if nbitsAVX512 {
		nibblesColZ(&dst[0], &q[0], kb, bs/32, &sc[0], &zp[0])
		return
	}
	nibblesColA(&dst[0], &q[0], kb, bs/32, &sc[0], &zp[0])
}
