package cpu

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// naiveDFT is the O(n²) definition, each angle reduced before its sine
// and cosine.
func naiveDFT(x []complex128, sign float64) []complex128 {
	n := len(x)
	y := make([]complex128, n)
	for k := range n {
		var s complex128
		for j := range n {
			a := sign * 2 * math.Pi * float64((j*k)%n) / float64(n)
			s += x[j] * complex(math.Cos(a), math.Sin(a))
		}
		y[k] = s
	}
	return y
}

func TestFFTPlan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var lengths []int
	for n := 1; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 97, 100, 128, 400, 512, 1000)
	for _, n := range lengths {
		x := make([]complex128, n)
		for i := range x {
			x[i] = complex(r.Float64()*2-1, r.Float64()*2-1)
		}
		p := newFFTPlan(n)
		for _, dir := range []struct {
			name string
			sign float64
			run  func([]complex128)
		}{{"forward", -1, p.forward}, {"inverse", 1, p.inverse}} {
			got := append([]complex128{}, x...)
			dir.run(got)
			want := naiveDFT(x, dir.sign)
			var e, norm float64
			for i := range want {
				e = max(e, cmplx.Abs(got[i]-want[i]))
				norm = max(norm, cmplx.Abs(want[i]))
			}
			if e > 1e-13*norm*math.Log2(float64(n)+1) {
				t.Errorf("n=%d %s: max error %g for values up to %g", n, dir.name, e, norm)
			}
		}
	}
}

func TestTwiddle(t *testing.T) {
	// The quarter and eighth turns, exact or within an ulp.
	for _, c := range []struct {
		k, n int
		want complex128
	}{
		{0, 8, 1}, {2, 8, -1i}, {4, 8, -1}, {6, 8, 1i},
		{1, 8, complex(math.Sqrt2/2, -math.Sqrt2/2)}, {3, 4, 1i}, {5, 10, -1},
	} {
		if got := twiddle(c.k, c.n); cmplx.Abs(got-c.want) > 2.3e-16 {
			t.Errorf("twiddle(%d, %d): got %v, want %v", c.k, c.n, got, c.want)
		}
	}
	// Within the error of sine and cosine of the unreduced angle.
	for n := 1; n < 50; n++ {
		for k := range n {
			s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
			if got := twiddle(k, n); cmplx.Abs(got-complex(c, s)) > 2e-15 {
				t.Errorf("twiddle(%d, %d): got %v, want %v", k, n, got, complex(c, s))
			}
		}
	}
}
