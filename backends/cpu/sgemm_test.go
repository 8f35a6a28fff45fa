package cpu

import (
	"fmt"
	"math"
	"testing"
)

// refGemm computes alpha*op(A)*op(B) + beta*C in float64.
func refGemm(transA, transB bool, m, n, k int, alpha float64, a []float32, lda int, b []float32, ldb int, beta float64, c []float32, ldc int) []float64 {
	out := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				var av, bv float32
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(av) * float64(bv)
			}
			v := alpha * s
			if beta != 0 {
				v += beta * float64(c[i*ldc+j])
			}
			out[i*n+j] = v
		}
	}
	return out
}

func TestSgemmAgainstReference(t *testing.T) {
	r := nnRng(6)
	sizes := []int{1, 3, 17, 64, 130}
	for _, m := range sizes {
		for _, n := range sizes {
			for _, k := range []int{1, 3, 17, 64, 300} {
				for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
					alpha, beta := float32(1), float32(0)
					if (m+n+k)%3 == 1 {
						alpha, beta = 0.5, 1.5
					}
					lda, ldb, ldc := k+2, n+1, n+3
					if tr[0] {
						lda = m + 1
					}
					if tr[1] {
						ldb = k + 3
					}
					a := nnRand(r, max(m, k)*lda)
					b := nnRand(r, max(n, k)*ldb)
					c := nnRand(r, m*ldc)
					c[0] = float32(math.NaN())
					want := refGemm(tr[0], tr[1], m, n, k, float64(alpha), a, lda, b, ldb, float64(beta), c, ldc)
					if beta != 0 {
						want[0] = math.NaN()
					}
					sgemm(tr[0], tr[1], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
					got := make([]float32, 0, m*n)
					for i := range m {
						got = append(got, c[i*ldc:i*ldc+n]...)
					}
					nnClose(t, fmt.Sprintf("m%d n%d k%d trans%v", m, n, k, tr), got, want, 1e-5)
				}
			}
		}
	}
}

// TestSgemmRowsIndependent checks that a row's result does not depend on
// how many rows go through one call.
func TestSgemmRowsIndependent(t *testing.T) {
	r := nnRng(7)
	for _, m := range []int{2, 5, 64} {
		for _, n := range []int{1, 7, 300} {
			for _, k := range []int{3, 129, 515} {
				for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}} {
					lda, ldb := k, n
					if tr[0] {
						lda = m
					}
					if tr[1] {
						ldb = k
					}
					a, b := nnRand(r, m*k), nnRand(r, n*k)
					c0 := nnRand(r, m*n)
					all := append([]float32{}, c0...)
					sgemm(tr[0], tr[1], m, n, k, 0.75, a, lda, b, ldb, 0.5, all, n)
					for i := range m {
						row := append([]float32{}, c0[i*n:(i+1)*n]...)
						ai, ldai := a[i*k:], k
						if tr[0] {
							// One column of the stored Aᵀ: copy it out.
							col := make([]float32, k)
							for p := range k {
								col[p] = a[p*lda+i]
							}
							ai, ldai = col, 1
						}
						sgemm(tr[0], tr[1], 1, n, k, 0.75, ai, ldai, b, ldb, 0.5, row, n)
						for j := range row {
							if math.Float32bits(row[j]) != math.Float32bits(all[i*n+j]) {
								t.Fatalf("m%d n%d k%d trans%v: row %d col %d: %v alone, %v batched", m, n, k, tr, i, j, row[j], all[i*n+j])
							}
						}
					}
				}
			}
		}
	}
}
