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
