//go:build amd64 && !purego

package cpu

// The separable pooling's row loops in AVX2 (pool_rows_amd64.s). Byte
// strides: the wrappers scale the element strides and check bounds.

//go:noescape
func poolRowsMaxAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)

//go:noescape
func poolRowsSumAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)

//go:noescape
func poolRowsAvgAVX(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32, tab *float32)

//go:noescape
func poolDeint2AVX(e, o, src *float32, n int)

// The same row loops sixteen lanes wide (pool_rows_avx512_amd64.s), for
// rows of at least sixteen: the last sixteen columns of a row overlap the
// rest, so they read and write only what the Go loops do and need no
// spill.

//go:noescape
func poolRowsMaxAVX512(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)

//go:noescape
func poolRowsSumAVX512(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32)

//go:noescape
func poolRowsAvgAVX512(dst, src *float32, offs *int, ntaps, width, rows, ds, ss, planes, dps, sps int, lowest float32, tab *float32)

// poolAVX512 selects the sixteen-lane pooling kernels (the row loops and
// the 2×2 stride-2 MaxPool) over the AVX2 ones: where 512-bit vectors run
// at full width (wide512, decided once at init; tests switch it to
// compare both).
var poolAVX512 = wide512

// poolRows512Min is the narrowest row the sixteen-lane row loops take
// (at least 16). Narrower rows go to the AVX2 loops: on Zen 5, with the
// separable pooling's blocks in L2, the wider loads (every misaligned one
// across two cache lines) paid only from about this width (three taps:
// 4% faster at 192 and 6% at 256, even at 128, 11% slower at 112 and
// 20% at 56). Tests lower it to check the loops on every width.
var poolRows512Min = 192

// poolRowsMax is poolRowsMaxGo, in AVX-512 or AVX2 where the CPU has
// it. With spill set, one plane and rows packed (ds == width), rows
// narrower than eight may be computed eight wide (by the AVX2 loops), the
// extra lanes landing on the next row's cells before that row is written;
// src must then hold seven elements after the last row's taps.
func poolRowsMax(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, lowest float32, spill bool) {
	if poolAVX512 && poolRowsFit512(dst, src, offs, width, rows, ds, ss, planes, dps, sps) {
		poolRowsMaxAVX512(&dst[0], &src[0], &offs[0], len(offs), width, rows, 4*ds, 4*ss, planes, 4*dps, 4*sps, lowest)
		return
	}
	n := poolRowsAsm(dst, src, offs, width, rows, ds, ss, planes, dps, sps, spill)
	if n < 0 {
		poolRowsMaxGo(dst, src, offs, width, rows, ds, ss, planes, dps, sps, lowest)
		return
	}
	if n > 0 {
		poolRowsMaxAVX(&dst[0], &src[0], &offs[0], len(offs), max(width, 8), n, 4*ds, 4*ss, planes, 4*dps, 4*sps, lowest)
	}
	if n < rows {
		poolRowsMaxGo(dst[n*ds:], src[n*ss:], offs, width, rows-n, ds, ss, 1, 0, 0, lowest)
	}
}

// poolRowsSum is poolRowsSumGo, in AVX-512 or AVX2 where the CPU has it;
// spill as
// for poolRowsMax.
func poolRowsSum(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, spill bool) {
	if poolAVX512 && poolRowsFit512(dst, src, offs, width, rows, ds, ss, planes, dps, sps) {
		poolRowsSumAVX512(&dst[0], &src[0], &offs[0], len(offs), width, rows, 4*ds, 4*ss, planes, 4*dps, 4*sps, 0)
		return
	}
	n := poolRowsAsm(dst, src, offs, width, rows, ds, ss, planes, dps, sps, spill)
	if n < 0 {
		poolRowsSumGo(dst, src, offs, width, rows, ds, ss, planes, dps, sps)
		return
	}
	if n > 0 {
		poolRowsSumAVX(&dst[0], &src[0], &offs[0], len(offs), max(width, 8), n, 4*ds, 4*ss, planes, 4*dps, 4*sps, 0)
	}
	if n < rows {
		poolRowsSumGo(dst[n*ds:], src[n*ss:], offs, width, rows-n, ds, ss, 1, 0, 0)
	}
}

// poolRowsAvg is poolRowsAvgGo, in AVX-512 or AVX2 where the CPU has it;
// spill as
// for poolRowsMax, tab then holding seven cells after the last row's.
func poolRowsAvg(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, tab []float32, spill bool) {
	if poolAVX512 && poolRowsFit512(dst, src, offs, width, rows, ds, ss, planes, dps, sps) && len(tab) >= (rows-1)*ds+width {
		poolRowsAvgAVX512(&dst[0], &src[0], &offs[0], len(offs), width, rows, 4*ds, 4*ss, planes, 4*dps, 4*sps, 0, &tab[0])
		return
	}
	n := poolRowsAsm(dst, src, offs, width, rows, ds, ss, planes, dps, sps, spill)
	if n > 0 && len(tab) < (n-1)*ds+max(width, 8) {
		n = -1
	}
	if n < 0 {
		poolRowsAvgGo(dst, src, offs, width, rows, ds, ss, planes, dps, sps, tab)
		return
	}
	if n > 0 {
		poolRowsAvgAVX(&dst[0], &src[0], &offs[0], len(offs), max(width, 8), n, 4*ds, 4*ss, planes, 4*dps, 4*sps, 0, &tab[0])
	}
	if n < rows {
		poolRowsAvgGo(dst[n*ds:], src[n*ss:], offs, width, rows-n, ds, ss, 1, 0, 0, tab[n*ds:])
	}
}

// poolRowsAsm returns how many leading rows (of every plane) the
// assembly computes, the rest left to the Go loop of one plane, or -1
// where the Go loop should do it all: no AVX2, nothing to do, a negative
// offset, or a width under eight that may not spill.
func poolRowsAsm(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, spill bool) int {
	if !hasAVX2FMA || len(offs) == 0 || width <= 0 || rows <= 0 || planes <= 0 {
		return -1
	}
	lo, hi := offs[0], offs[0]
	for _, o := range offs {
		lo, hi = min(lo, o), max(hi, o)
	}
	if lo < 0 {
		return -1
	}
	w := width
	n := rows
	if width < 8 {
		if !spill || planes != 1 || ds != width {
			return -1
		}
		w = 8
		// Row r writes [r*ds, r*ds+8) of the rows*ds cells and reads
		// up to r*ss+hi+8 of src.
		if rows*ds < 8 || len(src) < hi+8 {
			return -1
		}
		n = min(rows, (rows*ds-8)/ds+1)
		if ss > 0 {
			n = min(n, (len(src)-hi-8)/ss+1)
		}
		if n <= 0 {
			return -1
		}
	}
	if (planes-1)*dps+(n-1)*ds+w > len(dst) || (planes-1)*sps+(n-1)*ss+hi+w > len(src) {
		return -1
	}
	return n
}

// poolRowsFit512 reports whether the sixteen-lane row loops take the
// whole call: rows at least poolRows512Min wide, something to do, no
// negative offset, and every row's taps and cells inside src and dst.
func poolRowsFit512(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int) bool {
	if len(offs) == 0 || width < max(poolRows512Min, 16) || rows <= 0 || planes <= 0 {
		return false
	}
	lo, hi := offs[0], offs[0]
	for _, o := range offs {
		lo, hi = min(lo, o), max(hi, o)
	}
	return lo >= 0 && (planes-1)*dps+(rows-1)*ds+width <= len(dst) && (planes-1)*sps+(rows-1)*ss+hi+width <= len(src)
}

// poolDeint is poolDeintGo, two phases in AVX2 where the CPU has it. It
// keeps AVX2 where poolAVX512 is set: the sixteen-lane split
// (deinterleaveRowsAVX512) made the stride-2 separable pooling 2-6%
// slower end to end on Zen 5.
func poolDeint(dst, src []float32, s, h int) {
	if s != 2 || !hasAVX2FMA || h < 8 {
		poolDeintGo(dst, src, s, h)
		return
	}
	n := h &^ 7
	_, _ = src[2*h-1], dst[2*h-1]
	poolDeint2AVX(&dst[0], &dst[h], &src[0], n)
	for i := n; i < h; i++ {
		dst[i], dst[h+i] = src[2*i], src[2*i+1]
	}
}
