//go:build amd64 && !purego

package cpu

import "math"

//go:noescape
func minMaxAVX512(x *float32, n int, lo, hi *float32) (nan bool)

//go:noescape
func quantU8AVX512(y *byte, x *float32, n int, scale, zp float32)

//go:noescape
func minMaxAVX2(x *float32, n int, lo, hi *float32) (nan bool)

//go:noescape
func quantU8AVX2(y *byte, x *float32, n int, scale, zp float32)

// dynRange is dynRangeGo, sixteen values a step by AVX-512 or eight by
// AVX2 where the CPU has it; nan reports a NaN in x.
func dynRange(x []float32) (lo, hi float32, nan bool) { return dynRangeAt(rqBest, x) }

// dynRangeAt is dynRange at level l (rqAVX512, rqAVX2 or rqGo).
func dynRangeAt(l int, x []float32) (lo, hi float32, nan bool) {
	if n := rqStep(l, len(x)); n > 0 {
		if l == rqAVX512 {
			nan = minMaxAVX512(&x[0], n, &lo, &hi)
		} else {
			nan = minMaxAVX2(&x[0], n, &lo, &hi)
		}
		x = x[n:]
	}
	l2, h, nn := dynRangeGo(x)
	return min(lo, l2), max(hi, h), nan || nn
}

// dynQuant is dynQuantGo, sixteen values a step by AVX-512 or eight by
// AVX2 where the CPU has it and no NaN can arise: x holds none, its range
// is finite and the scale is a normal number (so x/scale is finite or
// saturates).
func dynQuant(y []byte, x []float32, scale float32, zp float64, nan bool) {
	dynQuantAt(rqBest, y, x, scale, zp, nan)
}

// dynQuantAt is dynQuant at level l.
func dynQuantAt(l int, y []byte, x []float32, scale float32, zp float64, nan bool) {
	if n := rqStep(l, len(x)); n > 0 && !nan && scale >= math.SmallestNonzeroFloat32*(1<<23) && !math.IsInf(float64(scale), 0) {
		_ = y[n-1]
		if l == rqAVX512 {
			quantU8AVX512(&y[0], &x[0], n, scale, float32(zp))
		} else {
			quantU8AVX2(&y[0], &x[0], n, scale, float32(zp))
		}
		y, x = y[n:], x[n:]
	}
	dynQuantGo(y, x, scale, zp)
}
