package cpu

import "math"

// Float32 elementwise math on whole slices: exp, tanh, erf, abs and neg
// (the standalone unary ops and elementwise-program steps), the row
// maximum of Softmax and the same-shape Sub and Div. ewmath_amd64.s runs
// them eight lanes at a time; the loops here are its Go twins and run
// the tails and the builds without assembly.

// ewmOp selects the function of ewMath32 (the op codes of ewMathAVX).
type ewmOp int

const (
	ewmExp ewmOp = iota
	ewmTanh
	ewmErf
	ewmAbs
	ewmNeg
	ewmSoftplus
)

// expGo is exp(x) in float32 over the whole range, expf32's Cephes
// scheme: x clamped to [-104, 89] (exp is 0 below, +Inf above), x = k·ln2
// + r, exp(r) = 1 + r + r²·P(r), scaled by 2^k as two normal powers of
// two so that the result overflows to +Inf and underflows through the
// subnormals as the products round. NaN gives NaN. The reduction and
// the polynomial are fused multiply-adds (fma32), as in the assembly.
func expGo(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
		p0    = 1.9875691500e-4
		p1    = 1.3981999507e-3
		p2    = 8.3334519073e-3
		p3    = 4.1665795894e-2
		p4    = 1.6666665459e-1
		p5    = 5.0000001201e-1
	)
	if x != x {
		return x
	}
	x = min(max(x, -104), 89)
	k := float32(math.RoundToEven(float64(float32(x * log2e))))
	r := fma32(k, -ln2hi, x)
	r = fma32(k, -ln2lo, r)
	p := fma32(p0, r, p1)
	p = fma32(p, r, p2)
	p = fma32(p, r, p3)
	p = fma32(p, r, p4)
	p = fma32(p, r, p5)
	p = fma32(p, float32(r*r), r)
	p += 1
	ki := int32(k)
	j := ki >> 1
	s1 := math.Float32frombits(uint32(j+127) << 23)
	s2 := math.Float32frombits(uint32(ki-j+127) << 23)
	return float32(p*s1) * s2
}

// tanhGo is tanh(x) as a rational function, the one ONNX Runtime's MLAS
// evaluates: x clamped to [-9, 9] (where tanh rounds to ±1), s = x²,
// tanh(x) = x·P(s)/Q(s) with P of degree 6 and Q of degree 3, in fused
// multiply-adds (fma32, as in the assembly). The quotient is taken
// before the product with x so that tiny x keep their digits. It is
// within 3 float32 units of tanh; NaN gives NaN.
func tanhGo(x float32) float32 {
	const (
		a13 = -2.76076847742355e-16
		a11 = 2.00018790482477e-13
		a9  = -8.60467152213735e-11
		a7  = 5.12229709037114e-08
		a5  = 1.48572235717979e-05
		a3  = 6.37261928875436e-04
		a1  = 4.89352455891786e-03
		b6  = 1.19825839466702e-06
		b4  = 1.18534705686654e-04
		b2  = 2.26843463243900e-03
		b0  = 4.89352518554385e-03
	)
	x = min(max(x, -9), 9)
	s := float32(x * x)
	p := fma32(a13, s, a11)
	p = fma32(p, s, a9)
	p = fma32(p, s, a7)
	p = fma32(p, s, a5)
	p = fma32(p, s, a3)
	p = fma32(p, s, a1)
	q := fma32(b6, s, b4)
	q = fma32(q, s, b2)
	q = fma32(q, s, b0)
	return float32(float32(p/q) * x)
}

// ewMathGo sets d[i] = f(x[i]) for op's f; d may be x.
func ewMathGo(op ewmOp, d, x []float32) {
	x = x[:len(d)]
	switch op {
	case ewmExp:
		for i, v := range x {
			d[i] = expGo(v)
		}
	case ewmTanh:
		for i, v := range x {
			d[i] = tanhGo(v)
		}
	case ewmErf:
		for i, v := range x {
			d[i] = erf32(v)
		}
	case ewmAbs:
		for i, v := range x {
			d[i] = math.Float32frombits(math.Float32bits(v) &^ (1 << 31))
		}
	case ewmNeg:
		for i, v := range x {
			d[i] = math.Float32frombits(math.Float32bits(v) ^ (1 << 31))
		}
	case ewmSoftplus:
		for i, v := range x {
			d[i] = softplusGo(v)
		}
	}
}

// softplusGo is log(1+e^x) as max(x, 0) + log1p(u), u = e^-|x| in
// (0, 1], with Cephes' logf polynomial: on u itself below √2-1, else on
// (u-1)/2 plus ln 2 (the mantissa and exponent of 1+u, without rounding
// 1+u, so that a tiny u keeps its digits). NaN gives NaN.
func softplusGo(v float32) float32 {
	u := expGo(-math.Float32frombits(math.Float32bits(v) &^ (1 << 31)))
	var x, e float32
	if u < 0.41421356 {
		x = u
	} else {
		x, e = (u-1)*0.5, 1
	}
	z := x * x
	p := float32(7.0376836292e-2*x) + -1.1514610310e-1
	p = float32(p*x) + 1.1676998740e-1
	p = float32(p*x) + -1.2420140846e-1
	p = float32(p*x) + 1.4249322787e-1
	p = float32(p*x) + -1.6668057665e-1
	p = float32(p*x) + 2.0000714765e-1
	p = float32(p*x) + -2.4999993993e-1
	p = float32(p*x) + 3.3333331174e-1
	y := float32(float32(p*x) * z)
	y += float32(-2.12194440e-4 * e)
	y += float32(-0.5 * z)
	r := x + y + float32(0.693359375*e)
	return max(v, 0) + r
}

// maxNaNGo returns the largest of x, and whether x holds a NaN (the
// maximum is then unspecified).
func maxNaNGo(x []float32) (float32, bool) {
	m := float32(math.Inf(-1))
	for _, v := range x {
		if v > m {
			m = v
		} else if v != v {
			return m, true
		}
	}
	return m, false
}

// subDivGo sets d[i] = a[i] - b[i], or a[i] / b[i] when div.
func subDivGo(div bool, d, a, b []float32) {
	a, b = a[:len(d)], b[:len(d)]
	if div {
		for i := range d {
			d[i] = a[i] / b[i]
		}
		return
	}
	for i := range d {
		d[i] = a[i] - b[i]
	}
}

// lerpGo sets d[i] = wa*a[i] + wb*b[i], each product rounded before the
// sum; d may be a or b.
func lerpGo(d, a, b []float32, wa, wb float32) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = float32(wa*a[i]) + float32(wb*b[i])
	}
}
