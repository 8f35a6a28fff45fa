//go:build amd64 && !purego

package cpu

import "math"

// The AVX activations of epilogue_amd64.s, on len multiples of 8.

//go:noescape
func actReluAVX(d *float32, n int)

//go:noescape
func actClipAVX(d *float32, n int, lo, hi, z float32)

//go:noescape
func reluToAVX(d, x *float32, n int)

//go:noescape
func clipToAVX(d, x *float32, n int, lo, hi, z float32)

//go:noescape
func actHardSigmoidAVX(d *float32, n int, a, b float32)

//go:noescape
func actHardSwishAVX(d *float32, n int)

//go:noescape
func actHardSwishDiv6AVX(d *float32, n int)

// hasAVX reports whether the AVX activations can run here.
var hasAVX = hasAVX2FMA

// avxSplit returns the length of d's head that the AVX loops take (0
// without AVX).
func avxSplit(d []float32) int {
	if !hasAVX {
		return 0
	}
	return len(d) &^ 7
}

func actRelu32(d []float32) {
	if n := avxSplit(d); n > 0 {
		actReluAVX(&d[0], n)
		d = d[n:]
	}
	actReluGo(d)
}

// clipAVXOK reports whether actClipAVX gives Go's bits for these bounds.
func clipAVXOK(lo, hi float32) bool {
	const negZero = 0x80000000
	return lo == lo && hi == hi && math.Float32bits(lo) != negZero && math.Float32bits(hi) != negZero
}

// clipZero returns actClipAVX's z for lower bound lo.
func clipZero(lo float32) float32 {
	if math.Float32bits(lo) == 0 {
		return 0
	}
	return float32(math.Copysign(0, -1))
}

func actClip32(d []float32, lo, hi float32) {
	if n := avxSplit(d); n > 0 && clipAVXOK(lo, hi) {
		actClipAVX(&d[0], n, lo, hi, clipZero(lo))
		d = d[n:]
	}
	actClipGo(d, lo, hi)
}

// reluTo32 sets d[i] = actRelu32's value of x[i] in one pass over
// memory; d may be x.
func reluTo32(d, x []float32) {
	if !hasAVX {
		reluToBlocks(d, x)
		return
	}
	x = x[:len(d)]
	if n := avxSplit(d); n > 0 {
		reluToAVX(&d[0], &x[0], n)
		d, x = d[n:], x[n:]
	}
	copy(d, x)
	actReluGo(d)
}

// clipTo32 sets d[i] = actClip32's value of x[i] in one pass over
// memory where the AVX loop gives Go's bits for the bounds, else block
// by block in L1; d may be x.
func clipTo32(d, x []float32, lo, hi float32) {
	x = x[:len(d)]
	if !clipAVXOK(lo, hi) {
		clipToBlocks(d, x, lo, hi)
		return
	}
	if n := avxSplit(d); n > 0 {
		clipToAVX(&d[0], &x[0], n, lo, hi, clipZero(lo))
		d, x = d[n:], x[n:]
	}
	copy(d, x)
	actClipGo(d, lo, hi)
}

func actHardSigmoid32(d []float32, a, b float32) {
	if n := avxSplit(d); n > 0 {
		actHardSigmoidAVX(&d[0], n, a, b)
		d = d[n:]
	}
	actHardSigmoidGo(d, a, b)
}

func actHardSwish32(d []float32) {
	if n := avxSplit(d); n > 0 {
		actHardSwishAVX(&d[0], n)
		d = d[n:]
	}
	actHardSwishGo(d)
}

func actHardSwishDiv6F32(d []float32) {
	if n := avxSplit(d); n > 0 {
		actHardSwishDiv6AVX(&d[0], n)
		d = d[n:]
	}
	actHardSwishDiv6Go(d)
}

//go:noescape
func addVecAVX(d, b *float32, n int)

//go:noescape
func addConstAVX(d *float32, n int, c float32)

// addVec32 adds b[i] to d[i]; b is at least as long as d.
func addVec32(d, b []float32) {
	b = b[:len(d)]
	if n := avxSplit(d); n > 0 {
		addVecAVX(&d[0], &b[0], n)
		d, b = d[n:], b[n:]
	}
	addVecGo(d, b)
}

// addConst32 adds c to every d[i].
func addConst32(d []float32, c float32) {
	if n := avxSplit(d); n > 0 {
		addConstAVX(&d[0], n, c)
		d = d[n:]
	}
	addConstGo(d, c)
}

//go:noescape
func sumAVX(x *float32, n int) float64

// sum32 returns the sum of x, accumulated in float64.
func sum32(x []float32) float64 {
	var s float64
	if n := avxSplit(x); n > 0 {
		s = sumAVX(&x[0], n)
		x = x[n:]
	}
	return s + sumGo(x)
}

//go:noescape
func normAVX(d, x, s, b *float32, n int, mu, den float32)

// norm32 sets d[i] = (x[i]-mu)/den*s[i] + b[i]; x, s and b are at least
// as long as d.
func norm32(d, x, s, b []float32, mu, den float32) {
	x, s, b = x[:len(d)], s[:len(d)], b[:len(d)]
	if n := avxSplit(d); n > 0 {
		normAVX(&d[0], &x[0], &s[0], &b[0], n, mu, den)
		d, x, s, b = d[n:], x[n:], s[n:], b[n:]
	}
	normGo(d, x, s, b, mu, den)
}

//go:noescape
func addVecReluAVX(d, b *float32, n int)

//go:noescape
func addConstReluAVX(d *float32, n int, c float32)

// addVecRelu32 is addVec32 then actRelu32, in one pass.
func addVecRelu32(d, b []float32) {
	b = b[:len(d)]
	if n := avxSplit(d); n > 0 {
		addVecReluAVX(&d[0], &b[0], n)
		d, b = d[n:], b[n:]
	}
	addVecGo(d, b)
	actReluGo(d)
}

// addConstRelu32 is addConst32 then actRelu32, in one pass.
func addConstRelu32(d []float32, c float32) {
	if n := avxSplit(d); n > 0 {
		addConstReluAVX(&d[0], n, c)
		d = d[n:]
	}
	addConstGo(d, c)
	actReluGo(d)
}
