//go:build arm64 && !purego

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNEONKernelsSelected checks that an arm64 build runs its NEON
// kernels: ASIMD is part of the arm64 baseline, so a CPU (or emulator)
// that does not report it would leave every NEON kernel untested here.
func TestNEONKernelsSelected(t *testing.T) {
	if !hasNEON {
		t.Fatal("golang.org/x/sys/cpu reports no ASIMD: the NEON kernels do not run and their tests compare Go with Go")
	}
	if got, want := kernelName, "neon"; got != want {
		t.Errorf("kernelName = %q, want %q", got, want)
	}
	if !asmRuns() {
		t.Error("asmRuns() = false, want true")
	}
}

// TestExpSubNEONBits checks that expSub32's NEON loop gives each element
// expf32's bits (it does expf32's operations in turn, unfused), on every
// length up to 70 with guard cells; the sum, added in another order, is
// checked against expSubGo's to a relative 1e-6.
func TestExpSubNEONBits(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 31))
	const guard = 3
	for n := range 71 {
		x := make([]float32, n)
		m := float32(-1e9)
		for i := range x {
			x[i] = (r.Float32()*2 - 1) * 40
			if r.IntN(6) == 0 {
				x[i] = -120 + r.Float32()*40 // around the clamp
			}
			m = max(m, x[i])
		}
		got, want := make([]float32, n+2*guard), make([]float32, n+2*guard)
		for i := range got {
			got[i], want[i] = 7, 7
		}
		s := expSub32(got[guard:guard+n], x, m)
		sw := expSubGo(want[guard:guard+n], x, m)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: element %d is %v, want %v", n, i-guard, got[i], want[i])
			}
		}
		if math.Abs(float64(s-sw)) > 1e-6*math.Abs(float64(sw)) {
			t.Fatalf("n=%d: sum %v, want %v", n, s, sw)
		}
	}
}
