package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpSubAccuracy checks expSub32 (assembly where the CPU has it) and
// expSubGo against the float64 exp on every length up to 40 with guard
// cells: each element within 3 ulps, the sum within a relative 1e-6.
func TestExpSubAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	const guard = 3
	for name, f := range map[string]func(d, x []float32, m float32) float32{"expSub32": expSub32, "expSubGo": expSubGo} {
		for n := range 41 {
			x := make([]float32, n)
			m := float32(-1e9)
			for i := range x {
				x[i] = (r.Float32()*2 - 1) * 30
				if r.IntN(5) == 0 {
					x[i] = -100 + r.Float32()*20 // under the clamp
				}
				m = max(m, x[i])
			}
			d := make([]float32, n+2*guard)
			for i := range d {
				d[i] = 7
			}
			s := f(d[guard:guard+n], x, m)
			var want float64
			for i := range d {
				if i < guard || i >= guard+n {
					if d[i] != 7 {
						t.Fatalf("%s n=%d: guard cell %d written", name, n, i-guard)
					}
					continue
				}
				e := math.Exp(float64(x[i-guard] - m)) // of the float32 difference, as computed
				want += e
				got := float64(d[i])
				if e < 1e-30 {
					if got > 1e-30 {
						t.Fatalf("%s n=%d: exp(%v) = %v, want about 0", name, n, x[i-guard]-m, got)
					}
					continue
				}
				if ulps := math.Abs(got-e) / (e * 0x1p-23); ulps > 3 {
					t.Fatalf("%s n=%d: exp(%v) = %v, want %v (%.1f ulps)", name, n, x[i-guard]-m, got, e, ulps)
				}
			}
			if math.Abs(float64(s)-want) > 1e-6*want {
				t.Fatalf("%s n=%d: sum %v, want %v", name, n, s, want)
			}
		}
	}
}

// TestSum32 checks sum32 (assembly where the CPU has it) against a plain
// float64 sum on every length up to 40.
func TestSum32(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for n := range 41 {
		x := make([]float32, n+1)
		for i := range x {
			x[i] = (r.Float32()*2 - 1) * 100
		}
		got, want := sum32(x[:n]), sumGo(x[:n])
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Fatalf("n=%d: sum %v, want %v", n, got, want)
		}
	}
}

// TestLayerNormRows checks norm32 against normGo bit for bit, on every
// length up to 40, with guard cells after the output.
func TestLayerNormRows(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 19))
	for n := range 41 {
		x, s, b := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], s[i], b[i] = r.Float32()*4-2, r.Float32()+0.5, r.Float32()-0.5
		}
		got, want := make([]float32, n+2), make([]float32, n+2)
		got[n], got[n+1], want[n], want[n+1] = 3, 3, 3, 3
		norm32(got[:n], x, s, b, 0.25, 1.5)
		normGo(want[:n], x, s, b, 0.25, 1.5)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: element %d is %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}
