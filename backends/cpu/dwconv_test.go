package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDwRowMatchesGo checks dwRow (assembly where the CPU has it) against
// dwRowGo on random taps, lengths up to 74 and guard cells around the
// output. The assembly fuses each product into its add, so the two agree
// to a few ulps, not bit for bit.
func TestDwRowMatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(5, 6))
	const guard = 3
	for _, taps := range []int{1, 2, 3, 9, 25} {
		for n := range 75 {
			base := make([]float32, 200)
			for i := range base {
				base[i] = r.Float32()*2 - 1
			}
			offs, w := make([]int, taps), make([]float32, taps)
			for i := range offs {
				offs[i] = r.IntN(len(base) - n + 1)
				w[i] = r.Float32()*2 - 1
			}
			bias := r.Float32() - 0.5
			got, want := make([]float32, n+2*guard), make([]float32, n+2*guard)
			for i := range got {
				got[i], want[i] = 7, 7
			}
			dwRow(got[guard:guard+n], base, offs, w, bias)
			dwRowGo(want[guard:guard+n], base, offs, w, bias)
			for i := range got {
				if i < guard || i >= guard+n {
					if got[i] != 7 {
						t.Fatalf("taps=%d n=%d: guard cell %d written", taps, n, i-guard)
					}
					continue
				}
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*float64(taps) {
					t.Fatalf("taps=%d n=%d: element %d is %v, want %v", taps, n, i-guard, got[i], want[i])
				}
			}
		}
	}
}

// TestGather16MatchesGo checks gather16 against gather16Go, with guard
// cells after the output.
func TestGather16MatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(14, 15))
	base := make([]float32, 300)
	for i := range base {
		base[i] = r.Float32()
	}
	for n := range 12 {
		offs := make([]int, n)
		o := 0
		for i := range offs {
			o += r.IntN(20)
			offs[i] = o
		}
		add := r.IntN(300 - 16 - o)
		got, want := make([]float32, 16*n+4), make([]float32, 16*n+4)
		gather16(got, base, offs, add)
		gather16Go(want, base, offs, add)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: element %d is %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

// TestCopyRows16MatchesGo checks copyRows16 against copyRows16Go, with
// guard cells after the output.
func TestCopyRows16MatchesGo(t *testing.T) {
	needAsm(t)
	src := make([]float32, 40*20)
	for i := range src {
		src[i] = float32(i)
	}
	for rows := range 12 {
		for _, ld := range []int{16, 17, 40} {
			got, want := make([]float32, 16*rows+3), make([]float32, 16*rows+3)
			copyRows16(got, src, ld, rows)
			copyRows16Go(want, src, ld, rows)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("rows=%d ld=%d: element %d is %v, want %v", rows, ld, i, got[i], want[i])
				}
			}
		}
	}
}
