//go:build amd64 && !purego

package cpu

import "math"

//go:noescape
func requantAVX512(dst *byte, acc *int32, n int, m, zp, lo, hi float32)

//go:noescape
func requantAVX2(dst *byte, acc *int32, n int, m, zp, lo, hi float32)

//go:noescape
func requantBiasAVX2(dst *byte, acc *int32, n int, bias int32, m, zp, lo, hi float32)

//go:noescape
func requantColsAVX2(dst *byte, acc, bias *int32, mult *float32, n int, zp, lo, hi float32)

//go:noescape
func requantF32AVX2(dst *byte, acc *float32, n int, m, zp, lo, hi float32)

// The vector widths the requantization kernels run at: rqAVX512 sixteen
// values a step, rqAVX2 eight, rqGo one.
const (
	rqGo = iota
	rqAVX2
	rqAVX512
)

// rqBest is the widest requantization this CPU runs, chosen once.
var rqBest = func() int {
	switch {
	case hasAVX512:
		return rqAVX512
	case hasAVX2FMA:
		return rqAVX2
	}
	return rqGo
}()

// rqLevels lists the vector requantizations this CPU runs, widest first;
// tests compare each with the Go twins.
func rqLevels() []int {
	var ls []int
	for l := rqBest; l > rqGo; l-- {
		ls = append(ls, l)
	}
	return ls
}

// rqStep returns how many of n values level l converts in vector steps.
func rqStep(l, n int) int {
	switch l {
	case rqAVX512:
		return n &^ 15
	case rqAVX2:
		return n &^ 7
	}
	return 0
}

// requantRun writes dst[i] = acc[i]·m, in float32, rounded half to even,
// plus zp, saturated to [lo, hi], as a byte (the int8 or uint8 value):
// by AVX-512 sixteen at a time, or AVX2 eight, where the CPU has it and m
// is finite. In float32 the rounded product plus zp is exact below 2²⁴
// and saturates the same above, so it equals requantRunGo's float64 sum.
func requantRun(dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	requantRunAt(rqBest, dst, acc, m, zp, lo, hi)
}

// requantRunAt is requantRun at level l.
func requantRunAt(l int, dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	if n := rqStep(l, len(acc)); n > 0 && !math.IsInf(float64(m), 0) && m == m {
		_ = dst[n-1]
		if l == rqAVX512 {
			requantAVX512(&dst[0], &acc[0], n, m, float32(zp), float32(lo), float32(hi))
		} else {
			requantAVX2(&dst[0], &acc[0], n, m, float32(zp), float32(lo), float32(hi))
		}
		dst, acc = dst[n:], acc[n:]
	}
	requantRunGo(dst, acc, m, zp, lo, hi)
}
