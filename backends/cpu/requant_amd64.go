//go:build amd64 && !purego

package cpu

import "math"

//go:noescape
func requantAVX512(dst *byte, acc *int32, n int, m, zp, lo, hi float32)

// requantRun writes dst[i] = acc[i]·m, in float32, rounded half to even,
// plus zp, saturated to [lo, hi], as a byte (the int8 or uint8 value):
// by AVX-512 sixteen at a time where the CPU has it and m is finite. In
// float32 the rounded product plus zp is exact below 2²⁴ and saturates
// the same above, so it equals requantRunGo's float64 sum.
func requantRun(dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	n := len(acc) &^ 15
	if hasAVX512 && n > 0 && !math.IsInf(float64(m), 0) && m == m {
		_ = dst[n-1]
		requantAVX512(&dst[0], &acc[0], n, m, float32(zp), float32(lo), float32(hi))
		dst, acc = dst[n:], acc[n:]
	}
	requantRunGo(dst, acc, m, zp, lo, hi)
}
