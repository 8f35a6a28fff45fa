package cpu

import (
	"fmt"
	"math"
	"testing"
)

// TestDirectKernelMatchesPacked checks that each set's six-row kernel
// reading A in place gives the bits of its packed kernel, with guard
// cells around C.
func TestDirectKernelMatchesPacked(t *testing.T) {
	r := nnRng(21)
	for setName, ks := range kernelSets() {
		kr := ks[gemmMR-1]
		if kr.direct == nil {
			continue
		}
		for _, kc := range []int{1, 7, 64, 256} {
			for _, add := range []int{0, 1} {
				name := fmt.Sprintf("%s kc%d add%d", setName, kc, add)
				lda := kc + 3
				a := nnRand(r, (gemmMR-1)*lda+kc)
				ap := make([]float32, gemmMR*kc)
				packA(ap, a, lda, false, 1, 0, gemmMR, 0, kc)
				ps := kc*gemmNR + 5
				b := nnRand(r, ps+1)
				ldc := gemmNR + 3
				const g = 8
				all1, c1 := guarded((gemmMR-1)*ldc+gemmNR, g)
				all2, c2 := guarded((gemmMR-1)*ldc+gemmNR, g)
				c0 := nnRand(r, len(c1))
				copy(c1, c0)
				copy(c2, c0)
				kr.one(kc, &ap[0], &b[0], ps, &c1[0], ldc, add)
				kr.direct(kc, &a[0], &b[0], ps, &c2[0], ldc, add, lda)
				for i := range all1 {
					if math.Float32bits(all1[i]) != math.Float32bits(all2[i]) {
						t.Fatalf("%s: cell %d is %v in place, %v packed", name, i-g, all2[i], all1[i])
					}
				}
			}
		}
	}
}
