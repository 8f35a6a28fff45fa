package cpu

import (
	"fmt"
	"testing"
)

// TestPackBTransposed checks packB on a transposed B (full panels go
// through transposeLanes) against the element-by-element layout, with
// guard cells past the packed panels.
func TestPackBTransposed(t *testing.T) {
	for _, k := range []int{1, 5, 16, 17, 33, 300} {
		for _, n := range []int{1, 16, 17, 40, 64} {
			t.Run(fmt.Sprintf("k%d n%d", k, n), func(t *testing.T) {
				r := nnRng(uint64(k*100 + n))
				ldb := k + 3
				b := nnRand(r, n*ldb)
				const guard = 7
				size := packedBSize(k, n)
				got := make([]float32, size+guard)
				for i := range got {
					got[i] = -99
				}
				packB(got, b, ldb, true, k, n, 0, (n+gemmNR-1)/gemmNR)
				np := roundUp(n, gemmNR)
				for p0 := 0; p0 < k; p0 += gemmKC {
					kcb := min(gemmKC, k-p0)
					for jp := range np / gemmNR {
						for p := range kcb {
							for j := range gemmNR {
								want := float32(0)
								if c := jp*gemmNR + j; c < n {
									want = b[c*ldb+p0+p]
								}
								if g := got[p0*np+jp*kcb*gemmNR+p*gemmNR+j]; g != want {
									t.Fatalf("panel %d step %d column %d: got %v, want %v", jp, p0+p, j, g, want)
								}
							}
						}
					}
				}
				for i, g := range got[size:] {
					if g != -99 {
						t.Fatalf("guard cell %d: got %v, want -99", i, g)
					}
				}
			})
		}
	}
}
