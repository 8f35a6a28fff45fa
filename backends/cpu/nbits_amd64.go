//go:build amd64 && !purego

package cpu

import "fmt"

//go:noescape
func nbitsColsZ(y *float32, q *uint8, qstride int, ad, sc, zp *float32, zstride int, asum *float32, kb, chunks, ncols int)

// nbitsWide reports whether nbitsCols runs in assembly for blocks of bs
// values (then A must be given deinterleaved by deinterleave32): where
// 512-bit vectors run at full width and blocks are whole chunks of 32.
func nbitsWide(bs int) bool { return wide512 && bs >= 32 && bs%32 == 0 }

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
	nbitsColsZ(&y[0], &q[0], qstride, &a[0], &sc[0], &zp[0], zstride, &asum[0], kb, bs/32, ncols)
}

//go:noescape
func nibblesColZ(dst *float32, q *uint8, kb, chunks int, sc, zp *float32)

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
	nibblesColZ(&dst[0], &q[0], kb, bs/32, &sc[0], &zp[0])
}
