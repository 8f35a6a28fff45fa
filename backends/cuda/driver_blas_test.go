//go:build cuda && cgo

package cuda

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/x448/float16"
)

// rowGemm describes C = op(A)·op(B) on row-major matrices: A is M×K (K×M
// when transA), B is K×N (N×K when transB), C is M×N, batch of them.
type rowGemm struct {
	m, n, k        int
	transA, transB bool
	batch          int
}

// desc maps the row-major product to cuBLAS's column-major terms: a
// row-major matrix is its column-major transpose, so C^T = op(B)^T·op(A)^T
// is one column-major GEMM with the operands swapped.
func (r rowGemm) desc(a, b, c devptr, dt uint8) gemmDesc {
	lda, ldb := int32(r.k), int32(r.n)
	if r.transA {
		lda = int32(r.m)
	}
	if r.transB {
		ldb = int32(r.k)
	}
	return gemmDesc{
		transA: r.transB, transB: r.transA,
		m: int32(r.n), n: int32(r.m), k: int32(r.k),
		alpha: 1,
		a:     b, b: a, c: c,
		lda: ldb, ldb: lda, ldc: int32(r.n),
		strideA: int64(r.k * r.n), strideB: int64(r.m * r.k), strideC: int64(r.m * r.n),
		batch: int32(r.batch),
		aType: dt, bType: dt,
	}
}

// reference computes the product in float64.
func (r rowGemm) reference(a, b []float32) []float64 {
	c := make([]float64, r.batch*r.m*r.n)
	for p := range r.batch {
		ap, bp, cp := a[p*r.m*r.k:], b[p*r.k*r.n:], c[p*r.m*r.n:]
		for i := range r.m {
			for j := range r.n {
				var s float64
				for l := range r.k {
					var av, bv float32
					if r.transA {
						av = ap[l*r.m+i]
					} else {
						av = ap[i*r.k+l]
					}
					if r.transB {
						bv = bp[j*r.k+l]
					} else {
						bv = bp[l*r.n+j]
					}
					s += float64(av) * float64(bv)
				}
				cp[i*r.n+j] = s
			}
		}
	}
	return c
}

func randomFloats(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 2))
	f := make([]float32, n)
	for i := range f {
		f[i] = r.Float32()*2 - 1
	}
	return f
}

// toBF16 rounds f to bfloat16 (nearest, ties to even) and returns the
// bits and the rounded value.
func toBF16(f float32) (uint16, float32) {
	u := math.Float32bits(f)
	u += 0x7fff + (u>>16)&1
	h := uint16(u >> 16)
	return h, math.Float32frombits(uint32(h) << 16)
}

// halves converts f to dt's bits in place of the GPU operand and rounds f
// to the values the GPU sees.
func halves(f []float32, dt uint8) []byte {
	out := make([]byte, 2*len(f))
	for i, v := range f {
		var h uint16
		switch dt {
		case dtF16:
			x := float16.Fromfloat32(v)
			h, f[i] = x.Bits(), x.Float32()
		case dtBF16:
			h, f[i] = toBF16(v)
		}
		out[2*i], out[2*i+1] = byte(h), byte(h>>8)
	}
	return out
}

// gemmRun uploads the operands, runs one program with the GEMM (captured
// when asked) and returns C and the largest error against the float64
// reference relative to sqrt(k).
func gemmRun(t *testing.T, g *gpu, b *blas, s *stream, r rowGemm, dt uint8, captured bool, seed uint64) float64 {
	t.Helper()
	af := randomFloats(r.batch*r.m*r.k, seed)
	bf := randomFloats(r.batch*r.k*r.n, seed+1)
	var ab, bb []byte
	if dt == dtF32 {
		ab, bb = float32Bytes(af), float32Bytes(bf)
	} else {
		ab, bb = halves(af, dt), halves(bf, dt)
	}
	want := r.reference(af, bf)
	da, err := g.alloc(len(ab))
	if err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	defer g.free(da)
	db, err := g.alloc(len(bb))
	if err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	defer g.free(db)
	dc, err := g.alloc(4 * len(want))
	if err != nil {
		t.Fatalf("g.alloc: %v", err)
	}
	defer g.free(dc)
	if err := g.upload(da, ab); err != nil {
		t.Fatalf("g.upload: %v", err)
	}
	if err := g.upload(db, bb); err != nil {
		t.Fatalf("g.upload: %v", err)
	}
	p := g.newProgram(s, b)
	defer p.free()
	p.zero(dc, 4*len(want))
	p.gemm(r.desc(da, db, dc, dt))
	if captured {
		if err := p.capture(); err != nil {
			t.Fatalf("p.capture: %v", err)
		}
	}
	if err := g.run(p, nil, nil); err != nil {
		t.Fatalf("g.run: %v", err)
	}
	got := make([]float32, len(want))
	if err := g.download(float32Bytes(got), dc); err != nil {
		t.Fatalf("g.download: %v", err)
	}
	var worst float64
	for i := range got {
		worst = max(worst, math.Abs(float64(got[i])-want[i]))
	}
	return worst / math.Sqrt(float64(r.k))
}

// openTestBlas opens cuBLAS on a new stream. Without cuBLAS it skips, or
// fails under REQUIRE_CUDA=1, like requireGPU.
func openTestBlas(t *testing.T, g *gpu) (*blas, *stream) {
	t.Helper()
	if err := loadBlas(); err != nil {
		if os.Getenv("REQUIRE_CUDA") == "1" {
			t.Fatalf("REQUIRE_CUDA=1 but no cuBLAS (LINTEL_CUBLAS names the file): %v", err)
		}
		t.Skipf("no cuBLAS (LINTEL_CUBLAS names the file): %v", err)
	}
	s, err := g.newStream()
	if err != nil {
		t.Fatalf("g.newStream: %v", err)
	}
	b, err := g.openBlas(s)
	if err != nil {
		s.destroy()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.close()
		s.destroy()
	})
	return b, s
}

func TestGemm(t *testing.T) {
	g := requireGPU(t)
	b, s := openTestBlas(t, g)
	tests := []struct {
		r   rowGemm
		dt  uint8
		tol float64
	}{
		{rowGemm{m: 7, n: 5, k: 3, batch: 1}, dtF32, 1e-5},
		{rowGemm{m: 33, n: 17, k: 65, transA: true, batch: 1}, dtF32, 1e-5},
		{rowGemm{m: 16, n: 40, k: 24, transB: true, batch: 1}, dtF32, 1e-5},
		{rowGemm{m: 9, n: 11, k: 13, transA: true, transB: true, batch: 1}, dtF32, 1e-5},
		{rowGemm{m: 12, n: 10, k: 8, batch: 3}, dtF32, 1e-5},
		{rowGemm{m: 12, n: 10, k: 8, transB: true, batch: 4}, dtF32, 1e-5},
		{rowGemm{m: 64, n: 48, k: 96, batch: 1}, dtF16, 1e-5},
		{rowGemm{m: 20, n: 30, k: 40, transB: true, batch: 2}, dtF16, 1e-5},
		{rowGemm{m: 64, n: 48, k: 96, batch: 1}, dtBF16, 1e-5},
		{rowGemm{m: 20, n: 30, k: 40, transA: true, batch: 3}, dtBF16, 1e-5},
	}
	for i, tt := range tests {
		for _, captured := range []bool{false, true} {
			e := gemmRun(t, g, b, s, tt.r, tt.dt, captured, uint64(i))
			if e > tt.tol {
				t.Errorf("%+v type %d captured %v: error %.3g > %.3g", tt.r, tt.dt, captured, e, tt.tol)
			}
		}
	}
}

// TestTF32 runs one large float32 GEMM with TF32 off (the default) and
// on. Off keeps float32 accuracy; on may round the inputs to TF32's 10
// mantissa bits.
func TestTF32(t *testing.T) {
	g := requireGPU(t)
	b, s := openTestBlas(t, g)
	r := rowGemm{m: 256, n: 256, k: 1024, batch: 1}
	off := gemmRun(t, g, b, s, r, dtF32, false, 42)
	if err := b.setTF32(true); err != nil {
		t.Fatalf("b.setTF32: %v", err)
	}
	on := gemmRun(t, g, b, s, r, dtF32, false, 42)
	if err := b.setTF32(false); err != nil {
		t.Fatalf("b.setTF32: %v", err)
	}
	again := gemmRun(t, g, b, s, r, dtF32, false, 42)
	t.Logf("error/sqrt(k): TF32 off %.3g, on %.3g, off again %.3g", off, on, again)
	if off > 2e-5 || again > 2e-5 {
		t.Errorf("TF32 off: error %.3g, %.3g > 2e-5", off, again)
	}
	if on > 5e-3 {
		t.Errorf("TF32 on: error %.3g > 5e-3", on)
	}
	if on <= off {
		t.Logf("TF32 on was no less accurate than off: cuBLAS chose no TF32 kernel")
	}
}

// colGemm is cuBLAS's GEMM semantics in Go, column-major with leading
// dimensions and batch strides, on float32 slices standing for d.a, d.b
// and d.c.
func colGemm(d gemmDesc, a, b []float32) []float64 {
	c := make([]float64, int(max(d.batch, 1))*int(d.strideC))
	for p := range int(max(d.batch, 1)) {
		ap, bp, cp := a[p*int(d.strideA):], b[p*int(d.strideB):], c[p*int(d.strideC):]
		for i := range int(d.m) {
			for j := range int(d.n) {
				var s float64
				for l := range int(d.k) {
					var av, bv float32
					if d.transA {
						av = ap[l+i*int(d.lda)]
					} else {
						av = ap[i+l*int(d.lda)]
					}
					if d.transB {
						bv = bp[j+l*int(d.ldb)]
					} else {
						bv = bp[l+j*int(d.ldb)]
					}
					s += float64(av) * float64(bv)
				}
				cp[i+j*int(d.ldc)] = float64(d.alpha) * s
			}
		}
	}
	return c
}

// TestRowGemmMapping checks, without a GPU, that the tests' row-major to
// column-major mapping gives the row-major product under cuBLAS's
// semantics.
func TestRowGemmMapping(t *testing.T) {
	for _, r := range []rowGemm{
		{m: 7, n: 5, k: 3, batch: 1},
		{m: 4, n: 6, k: 5, transA: true, batch: 2},
		{m: 4, n: 6, k: 5, transB: true, batch: 1},
		{m: 3, n: 2, k: 7, transA: true, transB: true, batch: 3},
	} {
		a := randomFloats(r.batch*r.m*r.k, 1)
		b := randomFloats(r.batch*r.k*r.n, 2)
		want := r.reference(a, b)
		got := colGemm(r.desc(0, 0, 0, dtF32), b, a) // desc swaps the operands
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("%+v: C[%d] = %v, want %v", r, i, got[i], want[i])
			}
		}
	}
}
