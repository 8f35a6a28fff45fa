//go:build cuda && cgo

package hostsim

import (
	"math"
	"testing"
)

// specials are inputs every transcendental op is also run on.
var specials = []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 1e-7, -1e-7, 1e-3, -1e-3, 0.5, -0.5, 1, -1, 88, -88, 100, -100, 1e30, -1e30,
	float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.SmallestNonzeroFloat32, math.MaxFloat32}

func gelu64(v float64) float64 { return 0.5 * v * math.Erfc(-v/math.Sqrt2) }

func geluTanh64(v float64) float64 {
	return 0.5 * v * (1 + math.Tanh(0.7978845608028654*(v+0.044715*v*v*v)))
}

// unaryCase is one op of unary_f32: inputs, the float64 reference, and how
// close the kernel must come: within ulps float32 ulps, or abs absolutely.
type unaryCase struct {
	name        string
	op          uint32
	alpha, beta float32
	lo, hi      float64 // uniform inputs; log-uniform magnitudes when logScale
	logScale    bool
	special     bool
	ref         func(v float32, a, b float32) float64
	ulps, abs   float64
}

var unaryCases = []unaryCase{
	{name: "copy", op: uCopy, lo: -10, hi: 10, special: true, ref: func(v, _, _ float32) float64 { return float64(v) }},
	{name: "relu", op: uRelu, lo: -10, hi: 10, ref: func(v, _, _ float32) float64 {
		if v > 0 {
			return float64(v)
		}
		return 0
	}},
	{name: "sigmoid", op: uSigmoid, lo: -30, hi: 30, special: true, ulps: 1, ref: func(v, _, _ float32) float64 {
		if v >= 0 {
			return 1 / (1 + math.Exp(-float64(v)))
		}
		e := math.Exp(float64(v))
		return e / (1 + e)
	}},
	{name: "tanh", op: uTanh, lo: -12, hi: 12, special: true, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Tanh(float64(v)) }},
	{name: "tanh_small", op: uTanh, lo: -30, hi: 1, logScale: true, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Tanh(float64(v)) }},
	{name: "exp", op: uExp, lo: -105, hi: 90, special: true, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Exp(float64(v)) }},
	{name: "log", op: uLog, lo: -80, hi: 80, logScale: true, special: true, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Log(float64(v)) }},
	{name: "log_near_1", op: uLog, lo: 0.9, hi: 1.1, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Log(float64(v)) }},
	{name: "sqrt", op: uSqrt, lo: -80, hi: 80, logScale: true, special: true, ref: func(v, _, _ float32) float64 {
		return float64(float32(math.Sqrt(float64(v))))
	}},
	{name: "neg", op: uNeg, lo: -10, hi: 10, special: true, ref: func(v, _, _ float32) float64 { return -float64(v) }},
	{name: "abs", op: uAbs, lo: -10, hi: 10, special: true, ref: func(v, _, _ float32) float64 { return math.Abs(float64(v)) }},
	{name: "erf", op: uErf, lo: -6, hi: 6, special: true, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Erf(float64(v)) }},
	{name: "erf_small", op: uErf, lo: -40, hi: 1, logScale: true, ulps: 1, ref: func(v, _, _ float32) float64 { return math.Erf(float64(v)) }},
	{name: "gelu", op: uGelu, lo: -12, hi: 12, special: true, ulps: 1, ref: func(v, _, _ float32) float64 { return gelu64(float64(v)) }},
	// The tanh form loses relative accuracy far in the negative tail, in
	// any precision: 1 + tanh cancels.
	{name: "gelu_tanh", op: uGeluTanh, lo: -12, hi: 12, special: true, ulps: 1, abs: 1e-13, ref: func(v, _, _ float32) float64 { return geluTanh64(float64(v)) }},
	{name: "leaky", op: uLeaky, alpha: 0.01, lo: -10, hi: 10, ref: func(v, a, _ float32) float64 {
		if v >= 0 {
			return float64(v)
		}
		return float64(a * v)
	}},
	{name: "clip", op: uClip, alpha: -1.5, beta: 2.25, lo: -10, hi: 10, ref: func(v, a, b float32) float64 { return float64(min(max(v, a), b)) }},
	{name: "hard_sigmoid", op: uHardSigmoid, alpha: 0.2, beta: 0.5, lo: -10, hi: 10, ref: func(v, a, b float32) float64 {
		return float64(max(0, min(1, float32(a*v)+b)))
	}},
	{name: "hard_swish", op: uHardSwish, lo: -10, hi: 10, ref: func(v, _, _ float32) float64 {
		return float64(v * max(0, min(1, float32(v/6)+0.5)))
	}},
	{name: "reciprocal", op: uReciprocal, lo: -10, hi: 10, special: true, ref: func(v, _, _ float32) float64 { return float64(1 / v) }},
}

// TestUnary runs every op of unary_f32 on random inputs (and on special
// values for the transcendental ones) and checks each element against
// float64 math: exact where the op is exact, within one float32 ulp of
// the exact value otherwise (a correctly rounded result is within half).
func TestUnary(t *testing.T) {
	if len(unaryCases) < int(numUnary) {
		t.Fatalf("%d cases for %d ops", len(unaryCases), numUnary)
	}
	for i, c := range unaryCases {
		t.Run(c.name, func(t *testing.T) {
			r := newRand(uint64(100 + i))
			const n = 1000 // not a multiple of the block
			x := randF32(r, n, c.lo, c.hi)
			if c.logScale {
				for j := range x {
					s := float32(1)
					if c.lo < 0 && r.IntN(2) == 0 {
						s = -1
					}
					x[j] = s * float32(math.Exp(c.lo+(c.hi-c.lo)*r.Float64()))
				}
				if c.op == uLog || c.op == uSqrt {
					for j := range x {
						x[j] = float32(math.Abs(float64(x[j])))
					}
				}
			}
			if c.special {
				x = append(x, specials...)
			}
			xb, yb := f32Buf("x", x), newBuf("y", 4*len(x))
			launch1D(t, "unary_f32", len(x), unaryArgs{N: uint32(len(x)), Op: c.op, Alpha: c.alpha, Beta: c.beta}, xb, yb)
			y := yb.f32()
			worst := 0.0
			bad := 0
			for j, v := range x {
				want := c.ref(v, c.alpha, c.beta)
				d := ulpDiff(y[j], want)
				if math.Abs(float64(y[j])-want) <= c.abs {
					d = 0
				}
				worst = max(worst, d)
				if d > c.ulps && bad < 5 {
					bad++
					t.Errorf("%s(%g) = %g, want %g (%.2f ulps)", c.name, v, y[j], want, d)
				}
			}
			t.Logf("%s: worst error %.3f ulps over %d inputs", c.name, worst, len(x))
		})
	}
}

// TestNot checks not_u8.
func TestNot(t *testing.T) {
	r := newRand(7)
	x := make([]byte, 777)
	for i := range x {
		x[i] = byte(r.IntN(3))
	}
	xb, yb := u8Buf("x", x), newBuf("y", len(x))
	launch1D(t, "not_u8", len(x), unaryArgs{N: uint32(len(x))}, xb, yb)
	for i, v := range yb.data() {
		want := byte(0)
		if x[i] == 0 {
			want = 1
		}
		if v != want {
			t.Fatalf("not(%d) = %d, want %d", x[i], v, want)
		}
	}
}
