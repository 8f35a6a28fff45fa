//go:build amd64 && !purego

package cpu

import (
	"math"
	"testing"
)

// TestPackedAVX512Bits runs the AVX-512 six-row packed kernels and the
// AVX2 one on the same random panels, storing and adding: every output
// must be the same bits, since each element is summed in the same order
// with the same roundings.
func TestPackedAVX512Bits(t *testing.T) {
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernels run here")
	}
	r := nnRng(5)
	for _, kc := range []int{0, 1, 3, 17, 100, gemmKC} {
		for _, add := range []int{0, 1} {
			ps := kc*gemmNR + 7
			a := nnRand(r, kc*gemmMR+1)
			b := nnRand(r, 2*ps+1)
			ldc := 2*gemmNR + 5
			c0 := nnRand(r, gemmMR*ldc)
			want := append([]float32(nil), c0...)
			sgemmR6Q1(kc, &a[0], &b[0], ps, &want[0], ldc, add)
			sgemmR6Q1(kc, &a[0], &b[ps], ps, &want[gemmNR], ldc, add)
			two := append([]float32(nil), c0...)
			sgemmR6Q2Z(kc, &a[0], &b[0], ps, &two[0], ldc, add)
			one := append([]float32(nil), c0...)
			sgemmR6Q1Z(kc, &a[0], &b[0], ps, &one[0], ldc, add)
			sgemmR6Q1Z(kc, &a[0], &b[ps], ps, &one[gemmNR], ldc, add)
			for j := range want {
				if math.Float32bits(two[j]) != math.Float32bits(want[j]) || math.Float32bits(one[j]) != math.Float32bits(want[j]) {
					t.Fatalf("kc%d add%d: cell %d: R6Q2Z %v, R6Q1Z %v, AVX2 %v", kc, add, j, two[j], one[j], want[j])
				}
			}
		}
	}
}
