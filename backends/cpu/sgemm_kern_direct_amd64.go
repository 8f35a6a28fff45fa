//go:build amd64 && !purego

package cpu

// sgemmR6Q1D is sgemmR6Q1 reading six rows of A in place, lda floats
// apart (sgemm_kern_direct_amd64.s): see kernelRow.direct.
//
//go:noescape
func sgemmR6Q1D(kc int, a, b *float32, pstride int, c *float32, ldc int, add int, lda int)
