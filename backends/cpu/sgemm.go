package cpu

// Cache blocking for sgemm: a panel of kcBlock rows of op(B) by ncBlock
// columns (128 KiB of float32) stays hot in L2 while every row of A
// streams over it.
const (
	kcBlock = 128
	ncBlock = 256
)

// sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major float32
// matrices: op(A) is m×k, op(B) is k×n and C is m×n. op(X) is X, or Xᵀ when
// the matching trans flag is set; lda, ldb and ldc are the row strides of
// A, B and C as stored. With beta == 0, C is overwritten (NaNs in C do not
// propagate).
//
// Each row of C is computed with the same summation order whatever m is:
// C[i,j] starts at beta*C[i,j], then the products over p are added in
// increasing p. So computing rows together or one call per row gives
// bit-identical results.
func sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m <= 0 || n <= 0 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k <= 0 || alpha == 0 {
		return
	}
	if transB || n == 1 {
		sgemmDot(transA, transB, m, n, k, alpha, a, lda, b, ldb, c, ldc)
		return
	}
	for p0 := 0; p0 < k; p0 += kcBlock {
		p1 := min(p0+kcBlock, k)
		for j0 := 0; j0 < n; j0 += ncBlock {
			j1 := min(j0+ncBlock, n)
			for i := 0; i < m; i++ {
				row := c[i*ldc+j0 : i*ldc+j1]
				for p := p0; p < p1; p++ {
					var s float32
					if transA {
						s = a[p*lda+i]
					} else {
						s = a[i*lda+p]
					}
					if alpha != 1 {
						s *= alpha
					}
					axpy(s, b[p*ldb+j0:p*ldb+j1], row)
				}
			}
		}
	}
}

// axpy adds s*x to y; len(x) must be len(y).
func axpy(s float32, x, y []float32) {
	x = x[:len(y)]
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y[i] += s * x[i]
		y[i+1] += s * x[i+1]
		y[i+2] += s * x[i+2]
		y[i+3] += s * x[i+3]
	}
	for ; i < len(y); i++ {
		y[i] += s * x[i]
	}
}

// sgemmDot is sgemm's path for a transposed B (rows of Bᵀ are contiguous)
// and for n == 1: each C[i,j] adds the products over p in increasing p.
func sgemmDot(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			acc := c[i*ldc+j]
			switch {
			case !transA && transB:
				ar := a[i*lda : i*lda+k]
				br := b[j*ldb : j*ldb+k]
				if alpha == 1 {
					for p, av := range ar {
						acc += av * br[p]
					}
				} else {
					for p, av := range ar {
						acc += (alpha * av) * br[p]
					}
				}
			default:
				for p := 0; p < k; p++ {
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
					if alpha != 1 {
						av *= alpha
					}
					acc += av * bv
				}
			}
			c[i*ldc+j] = acc
		}
	}
}

// gemmNaive computes C = alpha*op(A)*op(B) + beta*C with a plain loop, for
// float64 and the integer element types. With beta == 0, C is overwritten.
func gemmNaive[E float64 | int32 | int64](transA, transB bool, m, n, k int, alpha E, a []E, lda int, b []E, ldb int, beta E, c []E, ldc int) {
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
		} else if beta != 1 {
			for j := range row {
				row[j] *= beta
			}
		}
		for p := 0; p < k; p++ {
			var s E
			if transA {
				s = a[p*lda+i]
			} else {
				s = a[i*lda+p]
			}
			s *= alpha
			if transB {
				for j := range row {
					row[j] += s * b[j*ldb+p]
				}
			} else {
				br := b[p*ldb : p*ldb+n]
				for j, bv := range br {
					row[j] += s * bv
				}
			}
		}
	}
}
