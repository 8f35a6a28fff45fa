//go:build amd64 && !purego

package cpu

import (
	"math"

	"golang.org/x/sys/cpu"
)

// hasAVX512BW reports the byte and word AVX-512 instructions the 8-bit
// max pooling takes.
var hasAVX512BW = hasAVX512 && cpu.X86.HasAVX512BW

//go:noescape
func q8ToF32AVX512(dst *float32, src *byte, n int, z int32, s float32, signed bool)

//go:noescape
func q8ToF32AVX2(dst *float32, src *byte, n int, z int32, s float32, signed bool)

//go:noescape
func requantF32AVX512(dst *byte, acc *float32, n int, m, zp, lo, hi float32)

//go:noescape
func requantBiasAVX512(dst *byte, acc *int32, n int, bias int32, m, zp, lo, hi float32)

//go:noescape
func evenBytesAVX512(dst, src *byte, n int, tailIn uint64, tailOut uint32)

//go:noescape
func requantColsAVX512(dst *byte, acc, bias *int32, mult *float32, n int, zp, lo, hi float32)

//go:noescape
func maxPool2x2BAVX2(y, x *byte, whole, ow, rows, iw int, signed bool)

//go:noescape
func maxPool2x2BAVX512(y, x *byte, ow, rows, iw int, inMask uint64, outMask uint32, signed bool)

// q8ToF32 sets dst[i] = float32(int32(src[i]) − z)·s, src[i] read as int8
// when signed, else as uint8: by AVX-512 sixteen at a time, or AVX2
// eight, where the CPU has it, the same values as q8ToF32Go.
func q8ToF32(dst []float32, src []byte, z int32, s float32, signed bool) {
	q8ToF32At(rqBest, dst, src, z, s, signed)
}

// q8ToF32At is q8ToF32 at level l (rqAVX512, rqAVX2 or rqGo).
func q8ToF32At(l int, dst []float32, src []byte, z int32, s float32, signed bool) {
	src = src[:len(dst)]
	if n := rqStep(l, len(dst)); n > 0 {
		if l == rqAVX512 {
			q8ToF32AVX512(&dst[0], &src[0], n, z, s, signed)
		} else {
			q8ToF32AVX2(&dst[0], &src[0], n, z, s, signed)
		}
		dst, src = dst[n:], src[n:]
	}
	q8ToF32Go(dst, src, z, s, signed)
}

// requantF32Run is requantRun of float32 sums, finite ones (the exact
// integer sums of QLinearConv's float32 twins): by AVX-512 sixteen at a
// time, or AVX2 eight, where the CPU has it and m is finite, the same
// bytes as requantF32RunGo.
func requantF32Run(dst []byte, acc []float32, m float32, zp, lo, hi float64) {
	requantF32RunAt(rqBest, dst, acc, m, zp, lo, hi)
}

// requantF32RunAt is requantF32Run at level l.
func requantF32RunAt(l int, dst []byte, acc []float32, m float32, zp, lo, hi float64) {
	if n := rqStep(l, len(acc)); n > 0 && !math.IsInf(float64(m), 0) && m == m {
		_ = dst[n-1]
		if l == rqAVX512 {
			requantF32AVX512(&dst[0], &acc[0], n, m, float32(zp), float32(lo), float32(hi))
		} else {
			requantF32AVX2(&dst[0], &acc[0], n, m, float32(zp), float32(lo), float32(hi))
		}
		dst, acc = dst[n:], acc[n:]
	}
	requantF32RunGo(dst, acc, m, zp, lo, hi)
}

// requantBiasRun is requantRun of acc[i] + bias (int32, wrapping): by
// AVX-512 sixteen at a time, or AVX2 eight, where the CPU has it and m is
// finite, the same bytes as requantBiasRunGo.
func requantBiasRun(dst []byte, acc []int32, bias int32, m float32, zp, lo, hi float64) {
	requantBiasRunAt(rqBest, dst, acc, bias, m, zp, lo, hi)
}

// requantBiasRunAt is requantBiasRun at level l.
func requantBiasRunAt(l int, dst []byte, acc []int32, bias int32, m float32, zp, lo, hi float64) {
	if n := rqStep(l, len(acc)); n > 0 && !math.IsInf(float64(m), 0) && m == m {
		_ = dst[n-1]
		if l == rqAVX512 {
			requantBiasAVX512(&dst[0], &acc[0], n, bias, m, float32(zp), float32(lo), float32(hi))
		} else {
			requantBiasAVX2(&dst[0], &acc[0], n, bias, m, float32(zp), float32(lo), float32(hi))
		}
		dst, acc = dst[n:], acc[n:]
	}
	requantBiasRunGo(dst, acc, bias, m, zp, lo, hi)
}

// maxPool2x2B runs the 2×2 stride-2 max pooling of rows output rows of
// ow 8-bit values (int8 when signed), row r at y[r·ow:] from input rows
// 2r and 2r+1 of width iw (2·ow <= iw) of x, by AVX-512, or by AVX2 and
// Go for the last ow mod 16 of each row; it reports false, doing
// nothing, where the CPU has neither.
func maxPool2x2B(y, x []byte, ow, rows, iw int, signed bool) bool {
	return maxPool2x2BAt(rqBest, y, x, ow, rows, iw, signed)
}

// maxPool2x2BAt is maxPool2x2B at level l (rqAVX512 needs AVX-512BW
// too, else it runs as rqAVX2).
func maxPool2x2BAt(l int, y, x []byte, ow, rows, iw int, signed bool) bool {
	if l == rqGo || ow <= 0 || rows <= 0 || 2*ow > iw {
		return false
	}
	_, _ = y[rows*ow-1], x[(2*rows-1)*iw+2*ow-1]
	if l == rqAVX512 && hasAVX512BW {
		tail := ow & 31
		maxPool2x2BAVX512(&y[0], &x[0], ow, rows, iw, 1<<(2*tail)-1, 1<<tail-1, signed)
		return true
	}
	whole := ow &^ 15
	maxPool2x2BAVX2(&y[0], &x[0], whole, ow, rows, iw, signed)
	if whole < ow {
		for r := range rows {
			r0, r1, yr := x[2*r*iw:], x[(2*r+1)*iw:], y[r*ow:(r+1)*ow]
			for i := whole; i < ow; i++ {
				a, b, c, d := r0[2*i], r0[2*i+1], r1[2*i], r1[2*i+1]
				if signed {
					yr[i] = byte(max(int8(a), int8(b), int8(c), int8(d)))
				} else {
					yr[i] = max(a, b, c, d)
				}
			}
		}
	}
	return true
}

// evenBytes sets dst[i] = src[2i] (src holds at least 2·len(dst)−1
// bytes): by AVX-512 where the CPU has it, as evenBytesGo.
func evenBytes(dst, src []byte) {
	n := len(dst)
	if !hasAVX512BW || n < 4 {
		evenBytesGo(dst, src)
		return
	}
	_ = src[2*n-2]
	tail := n & 31
	evenBytesAVX512(&dst[0], &src[0], n, 1<<max(2*tail-1, 0)-1, 1<<tail-1)
}

// requantCols is requantColsGo by AVX-512 sixteen at a time, or AVX2
// eight, where the CPU has it; every mult must be finite (see
// finiteAll).
func requantCols(dst []byte, acc, bias []int32, mult []float32, zp, lo, hi float64) {
	requantColsAt(rqBest, dst, acc, bias, mult, zp, lo, hi)
}

// requantColsAt is requantCols at level l.
func requantColsAt(l int, dst []byte, acc, bias []int32, mult []float32, zp, lo, hi float64) {
	if n := rqStep(l, len(acc)); n > 0 {
		_, _, _ = dst[n-1], bias[n-1], mult[n-1]
		if l == rqAVX512 {
			requantColsAVX512(&dst[0], &acc[0], &bias[0], &mult[0], n, float32(zp), float32(lo), float32(hi))
		} else {
			requantColsAVX2(&dst[0], &acc[0], &bias[0], &mult[0], n, float32(zp), float32(lo), float32(hi))
		}
		dst, acc, bias, mult = dst[n:], acc[n:], bias[n:], mult[n:]
	}
	requantColsGo(dst, acc, bias, mult, zp, lo, hi)
}
