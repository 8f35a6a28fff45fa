package cuda

import (
	"math"
	"math/rand/v2"
	"testing"

	core "github.com/lintel-ml/lintel/backends/internal/gpu"
)

// refGemm evaluates a gemm_f32 launch as GemmArgs defines it. It walks
// the batch index over BShape with its own odometer rather than
// batchOffset, which it checks.
func refGemm(a *core.GemmArgs, x, w, c []float32) []float32 {
	batch := max(int(a.Batch), 1)
	m, n, k := int(a.M), int(a.N), int(a.K)
	y := make([]float32, batch*m*n)
	rank := int(a.BRank)
	idx := make([]int, rank) // the batch index b, digit by digit, row-major over BShape
	for b := range batch {
		oa, ob := 0, 0
		for d := range rank {
			oa += idx[d] * int(a.BSA[d])
			ob += idx[d] * int(a.BSB[d])
		}
		for i := range m {
			for j := range n {
				var s float32
				for l := range k {
					s += x[oa+i*int(a.SAM)+l*int(a.SAK)] * w[ob+l*int(a.SBK)+j*int(a.SBN)]
				}
				v := a.Alpha * s
				if a.HasC != 0 {
					v += a.Beta * c[i*int(a.SCM)+j*int(a.SCN)]
				}
				y[(b*m+i)*n+j] = v
			}
		}
		// Step the odometer: the last digit fastest, carrying leftwards.
		for d := rank - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < int(a.BShape[d]) {
				break
			}
			idx[d] = 0
		}
	}
	return y
}

// simCopy runs copy_b32 as CopyArgs defines it.
func simCopy(a *core.CopyArgs, x, y []float32) {
	for i := range int(a.N) {
		in, out, r := int(a.InOff), int(a.OutOff), i
		for d := int(a.Rank) - 1; d >= 0; d-- {
			c := r % int(a.Shape[d])
			r /= int(a.Shape[d])
			in += c * int(a.SIn[d])
			out += c * int(a.SOut[d])
		}
		y[out] = x[in]
	}
}

// simBlas runs one cuBLAS SGEMM call as cuBLAS defines it: column-major,
// C = alpha·op(A)·op(B) + beta·C, with cuBLAS A the launch's B buffer and
// cuBLAS B its A buffer.
func simBlas(c blasCall, bufA, bufB, y []float32) {
	at := func(buf []float32, off int64, trans bool, ld int32, r, col int) float32 {
		if trans {
			return buf[off+int64(col)+int64(r)*int64(ld)]
		}
		return buf[off+int64(r)+int64(col)*int64(ld)]
	}
	for b := range int64(c.batch) {
		oa, ob, oc := c.offA+b*c.strideA, c.offB+b*c.strideB, c.offC+b*c.strideC
		for i := range int(c.m) {
			for j := range int(c.n) {
				var s float32
				for l := range int(c.k) {
					s += at(bufA, oa, c.transA, c.lda, i, l) * at(bufB, ob, c.transB, c.ldb, l, j)
				}
				p := oc + int64(i) + int64(j)*int64(c.ldc)
				v := c.alpha * s
				if c.beta != 0 {
					v += c.beta * y[p]
				}
				y[p] = v
			}
		}
	}
}

// Every gemm_f32 launch the planner emits maps to cuBLAS calls that give
// what the kernel gives: plain, transposed, batched with even and uneven
// batch strides, with and without a broadcast bias.
func TestPlanGemm(t *testing.T) {
	type tc struct {
		name  string
		a     core.GemmArgs
		calls int
	}
	plain := func(m, n, k int32) core.GemmArgs {
		return core.GemmArgs{M: uint32(m), N: uint32(n), K: uint32(k), Batch: 1, Alpha: 1, SAM: k, SAK: 1, SBK: n, SBN: 1}
	}
	withBias := func(a core.GemmArgs, scm, scn int32, beta float32) core.GemmArgs {
		a.HasC, a.SCM, a.SCN, a.Beta = 1, scm, scn, beta
		return a
	}
	transA := plain(5, 7, 3)
	transA.SAM, transA.SAK = 1, 5
	transB := plain(5, 7, 3)
	transB.SBK, transB.SBN = 1, 3
	both := plain(4, 6, 9)
	both.SAM, both.SAK, both.SBK, both.SBN, both.Alpha = 1, 4, 1, 9, 0.5
	heads := plain(8, 8, 4) // [2,3,8,4] x [2,3,4,8]
	heads.Batch, heads.BRank = 6, 2
	heads.BShape[0], heads.BShape[1] = 2, 3
	heads.BSA[0], heads.BSA[1] = 3*32, 32
	heads.BSB[0], heads.BSB[1] = 3*32, 32
	shared := plain(8, 5, 4) // [6,8,4] x [4,5]: B broadcast
	shared.Batch, shared.BRank, shared.BShape[0], shared.BSA[0] = 6, 1, 6, 32
	cross := plain(3, 5, 4) // [2,1,3,4] x [1,3,4,5]
	cross.Batch, cross.BRank = 6, 2
	cross.BShape[0], cross.BShape[1] = 2, 3
	cross.BSA[0], cross.BSB[1] = 12, 20
	vec := plain(1, 10, 16)
	vec.SAM = 99 // M == 1: the row stride is never used
	cases := []tc{
		{"plain", plain(5, 7, 3), 1},
		{"mlp row", plain(1, 64, 48), 1},
		{"vector", vec, 1},
		{"transA", transA, 1},
		{"transB", transB, 1},
		{"both, alpha", both, 1},
		{"row bias", withBias(plain(5, 7, 3), 0, 1, 1), 1},
		{"column bias, beta", withBias(transB, 1, 0, 0.25), 1},
		{"scalar bias", withBias(plain(2, 3, 4), 0, 0, 2), 1},
		{"heads", heads, 1},
		{"shared B", shared, 1},
		{"uneven batch", cross, 6},
		{"batched bias", withBias(shared, 0, 1, 1), 1},
	}
	r := rand.New(rand.NewPCG(1, 2))
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		return v
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := planGemm(&c.a)
			if !ok {
				t.Fatal("no cuBLAS mapping")
			}
			if len(p.calls) != c.calls {
				t.Fatalf("%d calls, want %d", len(p.calls), c.calls)
			}
			x, w, bias := fill(4096), fill(4096), fill(64)
			want := refGemm(&c.a, x, w, bias)
			got := make([]float32, len(want))
			for i := range got {
				got[i] = float32(math.NaN()) // beta 0 must not read Y
			}
			if p.bias != nil {
				simCopy(p.bias, bias, got)
			}
			for _, call := range p.calls {
				simBlas(call, w, x, got)
			}
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-5 {
					t.Fatalf("y[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// Strides with no contiguous dimension stay on the kernel.
func TestPlanGemmFallback(t *testing.T) {
	a := core.GemmArgs{M: 4, N: 4, K: 4, Batch: 1, Alpha: 1, SAM: 8, SAK: 2, SBK: 4, SBN: 1}
	if _, ok := planGemm(&a); ok {
		t.Fatal("a strided A mapped to cuBLAS")
	}
}
