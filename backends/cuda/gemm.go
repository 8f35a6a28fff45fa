package cuda

import core "github.com/lintel-ml/lintel/backends/internal/gpu"

// blasCall is one cuBLAS SGEMM, strided batched when batch > 1, in
// cuBLAS's column-major terms. cuBLAS's A operand is the GemmArgs B
// buffer (binding 1) and its B operand the GemmArgs A buffer (binding 0):
// a row-major Y = A·B is the column-major Yᵀ = Bᵀ·Aᵀ, and a row-major
// matrix read as column-major is its transpose, so no data moves.
// Offsets and strides count elements.
type blasCall struct {
	transA, transB            bool
	m, n, k                   int32
	alpha, beta               float32
	offA, offB, offC          int64
	lda, ldb, ldc             int32
	strideA, strideB, strideC int64
	batch                     int32
}

// gemmPlan is how one gemm_f32 launch runs on cuBLAS: when the launch has
// a bias, a broadcast copy of it into Y (copy_b32 with bias, buffers C
// then Y), then the calls, which add beta·Y to the product.
type gemmPlan struct {
	bias  *core.CopyArgs
	calls []blasCall
}

// maxGemmCalls bounds the separate calls a batch whose offsets are not
// evenly spaced may take before the launch stays on the gemm kernel.
const maxGemmCalls = 64

// planGemm maps a gemm_f32 launch to cuBLAS calls, or reports false when
// its strides have no column-major reading (neither operand dimension
// contiguous); the launch then runs the gemm_f32 kernel itself.
func planGemm(a *core.GemmArgs) (gemmPlan, bool) {
	m, n, k := int64(a.M), int64(a.N), int64(a.K)
	if m == 0 || n == 0 || k == 0 || a.BRank > core.MaxBatchRank {
		return gemmPlan{}, false
	}
	// cuBLAS A (N×K column-major) reads B[k][n] = mem[k*SBK + n*SBN].
	transA, lda, ok := operand(int64(a.SBN), int64(a.SBK), n, k)
	if !ok {
		return gemmPlan{}, false
	}
	// cuBLAS B (K×M column-major) reads A[m][k] = mem[m*SAM + k*SAK].
	transB, ldb, ok := operand(int64(a.SAK), int64(a.SAM), k, m)
	if !ok {
		return gemmPlan{}, false
	}
	batch := max(int64(a.Batch), 1)
	base := blasCall{
		transA: transA, transB: transB,
		m: int32(n), n: int32(m), k: int32(k),
		alpha: a.Alpha, lda: int32(lda), ldb: int32(ldb), ldc: int32(n),
		batch: 1,
	}
	var p gemmPlan
	if a.HasC != 0 {
		base.beta = a.Beta
		c := core.CopyArgs{N: uint32(batch * m * n), Rank: 3}
		c.Shape[0], c.Shape[1], c.Shape[2] = int32(batch), int32(m), int32(n)
		c.SIn[1], c.SIn[2] = a.SCM, a.SCN
		c.SOut[0], c.SOut[1], c.SOut[2] = int32(m*n), int32(n), 1
		p.bias = &c
	}
	shape := a.BShape[:a.BRank]
	sa, evenA := evenStride(shape, a.BSA[:a.BRank])
	sb, evenB := evenStride(shape, a.BSB[:a.BRank])
	switch {
	case batch == 1:
		p.calls = []blasCall{base}
	case evenA && evenB:
		c := base
		c.batch = int32(batch)
		c.strideA, c.strideB, c.strideC = sb, sa, m*n
		p.calls = []blasCall{c}
	case batch <= maxGemmCalls:
		for b := range batch {
			c := base
			c.offA, c.offB, c.offC = batchOffset(shape, a.BSB[:a.BRank], b), batchOffset(shape, a.BSA[:a.BRank], b), b*m*n
			p.calls = append(p.calls, c)
		}
	default:
		return gemmPlan{}, false
	}
	return p, true
}

// operand reads a row-major operand whose element (r, c) sits at
// r*rowStride + c*colStride, with rows×cols of them seen from cuBLAS as a
// rows×cols column-major matrix (contiguous along rows, transposed false)
// or as its transpose stored cols×rows (contiguous along cols). It returns
// the transpose flag and the leading dimension, or false when neither
// dimension is contiguous.
func operand(unitStride, ldStride, rows, cols int64) (trans bool, ld int64, ok bool) {
	switch {
	case unitStride == 1 && (ldStride >= rows || cols == 1):
		return false, max(ldStride, rows, 1), true
	case ldStride == 1 && (unitStride >= cols || rows == 1):
		return true, max(unitStride, cols, 1), true
	}
	return false, 0, false
}

// evenStride reports whether the batch offsets of shape and strides are
// b*s for one s, and returns s.
func evenStride(shape, strides []int32) (int64, bool) {
	var s int64
	set := false
	span := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		d := int64(shape[i])
		if d != 1 {
			st := int64(strides[i])
			if !set {
				// The innermost dim that is not 1 steps once per b.
				s, set = st, true
			} else if st != s*span {
				return 0, false
			}
		}
		span *= d
	}
	return s, true
}

// batchOffset returns the element offset of batch index b.
func batchOffset(shape, strides []int32, b int64) int64 {
	var off int64
	for i := len(shape) - 1; i >= 0; i-- {
		d := int64(shape[i])
		off += b % d * int64(strides[i])
		b /= d
	}
	return off
}
