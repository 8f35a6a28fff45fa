//go:build amd64 && !purego

package cpu

import "math"

//go:noescape
func leakyReluAVX(d *float32, n int, a float32)

//go:noescape
func sigmoidAVX(d *float32, n int)

//go:noescape
func binConstAVX(op int, d, x *float32, n int, c float32)

// binConstZ is binConstAVX with AVX-512 on a multiple of 32 elements.
//
//go:noescape
func binConstZ(op int, d, x *float32, n int, c float32)

// leakyRelu32 applies LeakyRelu with slope a to d in place.
// leakyMaxAVX is leakyReluAVX then actClipAVX in one pass
// (ewstep_amd64.s).
//
//go:noescape
func leakyMaxAVX(d *float32, n int, a, lo, hi, z float32)

// leakyMax32 sets d[i] to Max(LeakyRelu(d[i], a), c) in one pass over
// memory, with the instructions of leakyRelu32 then actClip32 (c, +inf):
// the same bits.
func leakyMax32(d []float32, a, c float32) {
	inf := float32(math.Inf(1))
	if n := avxSplit(d); n > 0 && clipAVXOK(c, inf) {
		leakyMaxAVX(&d[0], n, a, c, inf, clipZero(c))
		d = d[n:]
	}
	leakyMaxGo(d, a, c)
}

func leakyRelu32(d []float32, a float32) {
	if n := avxSplit(d); n > 0 {
		leakyReluAVX(&d[0], n, a)
		d = d[n:]
	}
	leakyReluGo(d, a)
}

// sigmoid32s applies sigmoid32 to d in place.
func sigmoid32s(d []float32) { sigmoidTo32(d, d) }

// sigmoidZ is sigmoidAVX from x into d on a multiple of 16 with AVX-512,
// the same bits.
//
//go:noescape
func sigmoidZ(d, x *float32, n int)

// sigmoidTo32 sets d[i] = sigmoid32(x[i]) in one pass (d may be x):
// multiples of 16 with AVX-512 where 512-bit vectors run at full width,
// then AVX2, then Go, the same bits.
func sigmoidTo32(d, x []float32) {
	x = x[:len(d)]
	if n := len(d) &^ 15; wide512 && n > 0 {
		sigmoidZ(&d[0], &x[0], n)
		d, x = d[n:], x[n:]
	}
	if len(d) > 0 && &d[0] != &x[0] {
		copy(d, x)
	}
	if n := avxSplit(d); n > 0 {
		sigmoidAVX(&d[0], n)
		d = d[n:]
	}
	sigmoidGo(d)
}

// binConst32 sets d[i] = x[i] op c or c op x[i] by binConstCode's code;
// x may be d. Multiples of 32 run with AVX-512 where 512-bit vectors run
// at full width (the same IEEE operations).
func binConst32(code int, d, x []float32, c float32) {
	x = x[:len(d)]
	if n := len(d) &^ 31; wide512 && n > 0 {
		binConstZ(code, &d[0], &x[0], n, c)
		d, x = d[n:], x[n:]
	}
	if n := avxSplit(d); n > 0 {
		binConstAVX(code, &d[0], &x[0], n, c)
		d, x = d[n:], x[n:]
	}
	binConstGo(code, d, x, c)
}
