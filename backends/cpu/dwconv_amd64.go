//go:build amd64 && !purego

package cpu

// dwRowAVX is dwRowGo in AVX2+FMA assembly (dwconv_amd64.s).
//
//go:noescape
func dwRowAVX(dst *float32, n int, base *float32, offs *int, w *float32, taps int, bias float32)

// dwRowAVX512 is dwRowAVX in 512-bit vectors, n a multiple of 16: the
// same bits.
//
//go:noescape
func dwRowAVX512(dst *float32, n int, base *float32, offs *int, w *float32, taps int, bias float32)

// dw3x3AVX512 is dwRowAVX512 for a 3×3 kernel of stride and dilation
// 1 (dwconv_amd64.s): the same bits, each input row loaded once.
//
//go:noescape
func dw3x3AVX512(dst *float32, n int, base *float32, pitch int, w *float32, bias float32)

// dw3x3Row is dwRowTrusted for a 3×3 kernel of stride and dilation 1,
// offs being kh·pitch + kw: dw3x3AVX512 on whole vectors where 512-bit
// vectors run at full width and base holds the 16 floats it may read
// past the taps, dwRowTrusted on the rest. The same bits.
func dw3x3Row(dst, base []float32, offs []int, pitch int, w []float32, bias float32) {
	if n := len(dst) &^ 15; dwRow512 && n > 0 && len(base) >= n+2*pitch+16 && len(w) >= 9 {
		dw3x3AVX512(&dst[0], n, &base[0], pitch, &w[0], bias)
		dst, base = dst[n:], base[n:]
	}
	if len(dst) > 0 {
		dwRowTrusted(dst, base, offs, w, bias)
	}
}

// dwRow512 selects dwRowAVX512 where 512-bit vectors run at full width
// (tests clear it to check the AVX2 kernel).
var dwRow512 = wide512

// dwRowTrusted is dwRow for callers that have checked every tap's
// range themselves (dwPlan.conv, once per plane).
func dwRowTrusted(dst, base []float32, offs []int, w []float32, bias float32) {
	if !hasAVX2FMA || len(dst) == 0 {
		dwRowGo(dst, base, offs, w, bias)
		return
	}
	dwRowAsm(dst, base, offs, w, bias)
}

// dwRowAsm runs the AVX-512 kernel on whole vectors where selected, and
// the AVX2 one on the rest.
func dwRowAsm(dst, base []float32, offs []int, w []float32, bias float32) {
	n := len(dst)
	if dwRow512 && n >= 16 {
		n16 := n &^ 15
		dwRowAVX512(&dst[0], n16, &base[0], &offs[0], &w[0], len(offs), bias)
		if n16 == n {
			return
		}
		dst, base = dst[n16:], base[n16:]
		n -= n16
	}
	dwRowAVX(&dst[0], n, &base[0], &offs[0], &w[0], len(offs), bias)
}

// dwRow computes one output row of a depthwise convolution: see dwRowGo.
func dwRow(dst, base []float32, offs []int, w []float32, bias float32) {
	if !hasAVX2FMA || len(dst) == 0 {
		dwRowGo(dst, base, offs, w, bias)
		return
	}
	dwCheck(dst, base, offs, w)
	dwRowAsm(dst, base, offs, w, bias)
}

//go:noescape
func gather16AVX(dst, base *float32, offs *int, n int, add int)

// gather16 copies base[offs[t]+add:][:16] to dst[16t:][:16] for every t;
// offs must be non-decreasing (only its ends are checked against base).
func gather16(dst, base []float32, offs []int, add int) {
	if !hasAVX2FMA || len(offs) == 0 {
		gather16Go(dst, base, offs, add)
		return
	}
	_ = dst[16*len(offs)-1]
	_, _ = base[offs[0]+add], base[offs[len(offs)-1]+add+15]
	gather16AVX(&dst[0], &base[0], &offs[0], len(offs), add)
}

//go:noescape
func copyRows16AVX(dst, src *float32, ld int, rows int)

// copyRows16 copies rows rows of 16 floats, ld apart in src, to dst one
// after another.
func copyRows16(dst, src []float32, ld, rows int) {
	if !hasAVX2FMA || rows == 0 {
		copyRows16Go(dst, src, ld, rows)
		return
	}
	_, _ = dst[16*rows-1], src[(rows-1)*ld+15]
	copyRows16AVX(&dst[0], &src[0], ld, rows)
}

// dwCopyAVX512 selects the AVX-512 copies (tests clear it to check the
// AVX2 ones).
var dwCopyAVX512 = hasAVX512

//go:noescape
func copyStridedAVX512(dst *float32, dstride int, src *float32, sstride int, n, rows int)

//go:noescape
func deinterleaveRowsAVX512(even, odd *float32, dstride int, src *float32, sstride int, n, rows int)

//go:noescape
func copyStridedAVX(dst *float32, dstride int, src *float32, sstride int, n, rows int)

// copyStrided is copyStridedGo, in assembly where the CPU has AVX2
// (AVX-512: rows' tails under a mask rather than float by float).
func copyStrided(dst []float32, dstride int, src []float32, sstride, n, rows int) {
	if !hasAVX2FMA || rows <= 0 || n <= 0 {
		copyStridedGo(dst, dstride, src, sstride, n, rows)
		return
	}
	_, _ = dst[(rows-1)*dstride+n-1], src[(rows-1)*sstride+n-1]
	if dwCopyAVX512 {
		copyStridedAVX512(&dst[0], dstride, &src[0], sstride, n, rows)
		return
	}
	copyStridedAVX(&dst[0], dstride, &src[0], sstride, n, rows)
}

//go:noescape
func deinterleaveRowsAVX(even, odd *float32, dstride int, src *float32, sstride int, n, rows int)

// deinterleaveRows is deinterleaveRowsGo, in assembly where the CPU has
// AVX2 (AVX-512: rows' tails under masks rather than pair by pair).
func deinterleaveRows(even, odd []float32, dstride int, src []float32, sstride, n, rows int) {
	if !hasAVX2FMA || rows <= 0 || n <= 1 {
		deinterleaveRowsGo(even, odd, dstride, src, sstride, n, rows)
		return
	}
	_, _, _ = even[(rows-1)*dstride+(n+1)/2-1], odd[(rows-1)*dstride+n/2-1], src[(rows-1)*sstride+n-1]
	if dwCopyAVX512 {
		deinterleaveRowsAVX512(&even[0], &odd[0], dstride, &src[0], sstride, n, rows)
		return
	}
	deinterleaveRowsAVX(&even[0], &odd[0], dstride, &src[0], sstride, n, rows)
}
