package cpu

import "math"

// Scalar math for the unary kernels, in float64 so that float32 results
// are correctly rounded or nearly so. Each takes the element and the op's
// two float attributes (alpha, beta), which most ignore.

// mathFn is a scalar elementwise function with two parameters.
type mathFn func(x, a, b float64) float64

func fnExp(x, _, _ float64) float64   { return math.Exp(x) }
func fnLog(x, _, _ float64) float64   { return math.Log(x) }
func fnSqrt(x, _, _ float64) float64  { return math.Sqrt(x) }
func fnErf(x, _, _ float64) float64   { return math.Erf(x) }
func fnSin(x, _, _ float64) float64   { return math.Sin(x) }
func fnCos(x, _, _ float64) float64   { return math.Cos(x) }
func fnTan(x, _, _ float64) float64   { return math.Tan(x) }
func fnAsin(x, _, _ float64) float64  { return math.Asin(x) }
func fnAcos(x, _, _ float64) float64  { return math.Acos(x) }
func fnAtan(x, _, _ float64) float64  { return math.Atan(x) }
func fnSinh(x, _, _ float64) float64  { return math.Sinh(x) }
func fnCosh(x, _, _ float64) float64  { return math.Cosh(x) }
func fnAsinh(x, _, _ float64) float64 { return math.Asinh(x) }
func fnAcosh(x, _, _ float64) float64 { return math.Acosh(x) }
func fnAtanh(x, _, _ float64) float64 { return math.Atanh(x) }
func fnTanh(x, _, _ float64) float64  { return math.Tanh(x) }
func fnRound(x, _, _ float64) float64 { return math.RoundToEven(x) }

// fnSigmoid is 1/(1+e^-x), computed without overflow for either sign.
func fnSigmoid(x, _, _ float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus is log(1+e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

func fnSoftplus(x, _, _ float64) float64 { return softplus(x) }

// fnMish is x*tanh(softplus(x)).
func fnMish(x, _, _ float64) float64 { return x * math.Tanh(softplus(x)) }

// fnElu is x for x >= 0, alpha*(e^x-1) otherwise.
func fnElu(x, alpha, _ float64) float64 {
	if x >= 0 {
		return x
	}
	return alpha * math.Expm1(x)
}

// fnSelu is gamma*x for x > 0, gamma*alpha*(e^x-1) otherwise.
func fnSelu(x, alpha, gamma float64) float64 {
	if x > 0 {
		return gamma * x
	}
	return gamma * alpha * math.Expm1(x)
}

// fnCelu is max(0,x) + min(0, alpha*(e^(x/alpha)-1)).
func fnCelu(x, alpha, _ float64) float64 {
	if x >= 0 {
		return x
	}
	return alpha * math.Expm1(x/alpha)
}

// fnGelu is the exact GELU, x*Phi(x).
func fnGelu(x, _, _ float64) float64 { return 0.5 * x * (1 + math.Erf(x*(1/math.Sqrt2))) }

// fnGeluTanh is GELU's tanh approximation.
func fnGeluTanh(x, _, _ float64) float64 {
	const c = 0.7978845608028654 // sqrt(2/pi)
	return 0.5 * x * (1 + math.Tanh(c*(x+0.044715*x*x*x)))
}

// sigmoid32 is the logistic function as ONNX Runtime computes float32 on
// x86 (MLAS): a rational approximation on [-18, 18], evaluated with fused
// multiply-adds, clamped to [0, 1]. Far in the tails it is quantised to
// multiples of 2^-25, and matching it keeps results comparable there.
func sigmoid32(v float32) float32 {
	const (
		a9  = float32(4.37031012579801e-11)
		a7  = float32(1.15627324459942e-07)
		a5  = float32(6.08574864600143e-05)
		a3  = float32(8.51377133304701e-03)
		a1  = float32(2.48287947061529e-01)
		b10 = float32(6.10247389755681e-13)
		b8  = float32(5.76102136993427e-09)
		b6  = float32(6.29106785017040e-06)
		b4  = float32(1.70198817374094e-03)
		b2  = float32(1.16817656904453e-01)
		b0  = float32(9.93151921023180e-01)
	)
	x := min(max(v, -18), 18)
	if v != v {
		x = v
	}
	x2 := x * x
	p := fma32(x2, a9, a7)
	p = fma32(p, x2, a5)
	p = fma32(p, x2, a3)
	p = fma32(p, x2, a1)
	p *= x
	q := fma32(x2, b10, b8)
	q = fma32(q, x2, b6)
	q = fma32(q, x2, b4)
	q = fma32(q, x2, b2)
	q = fma32(q, x2, b0)
	return min(max(p/q+0.5, 0), 1)
}

// fma32 is a float32 fused multiply-add: x*y is exact in float64 and the
// sum is rounded once more to float32.
func fma32(x, y, z float32) float32 { return float32(math.FMA(float64(x), float64(y), float64(z))) }
