package testmodels

import (
	"math"
	"testing"
)

// TestQuantize4 checks that quantize4's codes, scales and zero points
// give back every weight within half a step, on a last partial block
// too, and that the padding codes are zero.
func TestQuantize4(t *testing.T) {
	r := Rand(1)
	for _, tc := range []struct{ k, n, bs int }{{64, 3, 32}, {40, 5, 16}, {32, 1, 32}} {
		w := Uniform(r, tc.k*tc.n, 0.5)
		w[0] = 0.7 // one block with a wider range
		q, sc, zp := quantize4(w, tc.k, tc.n, tc.bs)
		kb := (tc.k + tc.bs - 1) / tc.bs
		for j := range tc.n {
			for i := range kb * tc.bs {
				b := i / tc.bs
				code := q[(j*kb+b)*tc.bs/2+(i%tc.bs)/2] >> (4 * (i & 1)) & 15
				if i >= tc.k {
					if code != 0 {
						t.Fatalf("k%d n%d: padding code at column %d, row %d = %d, want 0", tc.k, tc.n, j, i, code)
					}
					continue
				}
				z := zp[j*((kb+1)/2)+b/2] >> (4 * (b & 1)) & 15
				s := sc[j*kb+b]
				got := (float64(code) - float64(z)) * float64(s)
				if d := math.Abs(got - float64(w[i*tc.n+j])); d > float64(s)/2+1e-7 {
					t.Fatalf("k%d n%d: w[%d][%d] = %v back as %v, step %v", tc.k, tc.n, i, j, w[i*tc.n+j], got, s)
				}
			}
		}
	}
}
