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
			base, offs, w, bias := dwRowCase(r, 200, taps, n)
			got, want := filledF32(n+2*guard, 7), filledF32(n+2*guard, 7)
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

// dwRowCase returns a random depthwise row: a base of size floats, taps
// offsets into it that leave n floats each, the taps' weights and a
// bias.
func dwRowCase(r *rand.Rand, size, taps, n int) (base []float32, offs []int, w []float32, bias float32) {
	base = make([]float32, size)
	for i := range base {
		base[i] = r.Float32()*2 - 1
	}
	offs, w = make([]int, taps), make([]float32, taps)
	for i := range offs {
		offs[i] = r.IntN(size - n + 1)
		w[i] = r.Float32()*2 - 1
	}
	return base, offs, w, r.Float32() - 0.5
}

// filledF32 returns n floats, every one v.
func filledF32(n int, v float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = v
	}
	return s
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

// TestCopyStridedMatchesGo checks copyStrided against copyStridedGo on
// row lengths around the vector width and several strides, with guard
// cells between and after the rows.
func TestCopyStridedMatchesGo(t *testing.T) {
	needAsm(t)
	checkCopyStrided(t)
}

// checkCopyStrided is TestCopyStridedMatchesGo's body.
func checkCopyStrided(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 17))
	src := make([]float32, 2000)
	for i := range src {
		src[i] = r.Float32()
	}
	for _, n := range []int{1, 3, 7, 8, 9, 14, 15, 16, 17, 31, 32, 33, 40, 81} {
		for rows := range 5 {
			for _, st := range [][2]int{{n, n}, {n + 3, n}, {n, 2*n + 1}, {n + 9, 3 * n}} {
				got, want := make([]float32, st[0]*rows+5), make([]float32, st[0]*rows+5)
				for i := range got {
					got[i], want[i] = -1, -1
				}
				copyStrided(got, st[0], src, st[1], n, rows)
				copyStridedGo(want, st[0], src, st[1], n, rows)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("n=%d rows=%d strides %v: element %d is %v, want %v", n, rows, st, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestDeinterleaveRowsMatchesGo checks deinterleaveRows against
// deinterleaveRowsGo on odd and even row lengths around the vector
// width, with guard cells between and after the rows.
func TestDeinterleaveRowsMatchesGo(t *testing.T) {
	needAsm(t)
	checkDeinterleaveRows(t)
}

// checkDeinterleaveRows is TestDeinterleaveRowsMatchesGo's body.
func checkDeinterleaveRows(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 19))
	src := make([]float32, 3000)
	for i := range src {
		src[i] = r.Float32()
	}
	for _, n := range []int{0, 1, 2, 3, 7, 14, 15, 16, 17, 18, 28, 31, 32, 33, 40, 56, 97, 160} {
		for rows := range 4 {
			for _, st := range [][2]int{{(n + 1) / 2, n}, {(n+1)/2 + 2, 2 * n}, {n + 5, 3*n + 1}} {
				size := st[0]*rows + 4
				ge, go_, we, wo := make([]float32, size), make([]float32, size), make([]float32, size), make([]float32, size)
				for i := range ge {
					ge[i], go_[i], we[i], wo[i] = -1, -2, -1, -2
				}
				deinterleaveRows(ge, go_, st[0], src, st[1], n, rows)
				deinterleaveRowsGo(we, wo, st[0], src, st[1], n, rows)
				for i := range ge {
					if ge[i] != we[i] || go_[i] != wo[i] {
						t.Fatalf("n=%d rows=%d strides %v: element %d is %v, %v, want %v, %v", n, rows, st, i, ge[i], go_[i], we[i], wo[i])
					}
				}
			}
		}
	}
}
