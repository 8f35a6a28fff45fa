package cpu

import (
	"math"
	"testing"
)

// erfTol32 bounds |erf32(x) − erf(x)|: about eight float32 units near
// ±1 (the worst, 4.2e-7, is at x ≈ ±3.6); relative to Gelu's x it is
// below 2e-7.
const erfTol32 = 5e-7

func TestErf32(t *testing.T) {
	worst, at := 0.0, 0.0
	for i := -600000; i <= 600000; i++ {
		x := float32(i) * 1e-5 // [-6, 6] in steps of 1e-5
		got, want := float64(erf32(x)), math.Erf(float64(x))
		if d := math.Abs(got - want); d > worst {
			worst, at = d, float64(x)
		}
	}
	if worst > erfTol32 {
		t.Errorf("max |erf32 − erf| is %.3g at %v, want at most %.3g", worst, at, erfTol32)
	}
	for _, c := range []struct{ x, want float32 }{
		{0, 0}, {float32(math.Inf(1)), 1}, {float32(math.Inf(-1)), -1}, {100, 1}, {-100, -1},
	} {
		if got := erf32(c.x); got != c.want {
			t.Errorf("erf32(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := erf32(float32(math.NaN())); got == got {
		t.Errorf("erf32(NaN) = %v, want NaN", got)
	}
	t.Logf("max |erf32 − erf| = %.3g at %v", worst, at)
}

func TestGelu32(t *testing.T) {
	xs := []float32{-5, -2.5, -1, -0.3, 0, 0.3, 1, 2.5, 5, 30}
	d := append([]float32(nil), xs...)
	gelu32s(d)
	for i, x := range xs {
		want := 0.5 * float64(x) * (1 + math.Erf(float64(x)/math.Sqrt2))
		if diff := math.Abs(float64(d[i]) - want); diff > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("gelu32(%v) = %v, want %v", x, d[i], want)
		}
	}
}

// TestErfGeluMatchGo checks erf32s and gelu32s (the vector loops where
// the CPU has them) against the Go loops bit for bit on every step of
// 1e-5 across [-6, 6].
func TestErfGeluMatchGo(t *testing.T) {
	needAsm(t)
	xs := make([]float32, 1200008)
	for i := range xs {
		xs[i] = float32(i-600000) * 1e-5
	}
	for _, c := range []struct {
		name      string
		fast, ref func([]float32)
	}{{"Erf", erf32s, erfGo}, {"Gelu", gelu32s, geluGo}} {
		got, want := append([]float32(nil), xs...), append([]float32(nil), xs...)
		c.fast(got)
		c.ref(want)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s(%v) = %v, want %v", c.name, xs[i], got[i], want[i])
			}
		}
	}
}
