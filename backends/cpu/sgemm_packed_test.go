package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sgemm runs one product on a fresh single-thread context.
func sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	newGemmCtx(nil).sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// kernelSets are the micro-kernel sets this build can run: the pure-Go
// one always, the assembly one (AVX2+FMA, or NEON on arm64) where the
// CPU has it.
func kernelSets() map[string][gemmMR]kernelRow {
	sets := map[string][gemmMR]kernelRow{"go": goKernels(), "go-tall": goTallKernels(8, 2), "go-tall-short": goShortTallKernels(8, 2, 4, 1)}
	if asmRuns() {
		sets["asm"] = asmKernels()
	}
	if hasAVX512 {
		ks := asmKernels()
		ks[gemmMR-1] = avx512Six(ks[gemmMR-1])
		sets["asm-avx512"] = ks
	}
	return sets
}

// withKernels runs f with ks as the micro-kernels in use.
func withKernels(t *testing.T, ks [gemmMR]kernelRow, f func()) {
	t.Helper()
	saved := microKernels
	microKernels = ks
	defer func() { microKernels = saved }()
	f()
}

// guard is the value of the cells around an output; it must survive.
const guard = float32(-12345.5)

// guarded returns a slice of n cells with g guard cells on each side and
// the inner n cells: writes past either end show up in the guards.
func guarded(n, g int) (all, inner []float32) {
	all = make([]float32, n+2*g)
	for i := range all {
		all[i] = guard
	}
	return all, all[g : g+n]
}

// checkGuards fails t when a guard cell changed: the first and last g
// cells of all, and the cells between rows of width n and stride ld.
func checkGuards(t *testing.T, name string, all []float32, g, rows, n, ld int) {
	t.Helper()
	for i := range all {
		off := i - g
		inside := off >= 0 && off < (rows-1)*ld+n && off%ld < n
		if !inside && all[i] != guard {
			t.Fatalf("%s: guard cell %d (offset %d) overwritten with %v", name, i, off, all[i])
		}
	}
}

// TestMicroKernels runs every micro-kernel against a float64 sum on
// random depths, storing and adding, and checks the cells around C.
func TestMicroKernels(t *testing.T) {
	r := nnRng(11)
	for setName, ks := range kernelSets() {
		for ri, kr := range ks {
			rows := ri + 1
			for _, q := range []int{kr.q, 1} {
				fn := kr.wide
				if q == 1 {
					fn = kr.one
				}
				for _, kc := range []int{0, 1, 2, 7, 64, 255, 256} {
					for _, add := range []int{0, 1} {
						name := fmt.Sprintf("%s r%d q%d kc%d add%d", setName, rows, q, kc, add)
						ps := kc*gemmNR + 5 // panels not adjacent
						a := nnRand(r, kc*rows+1)
						b := nnRand(r, q*ps+1)
						ldc := q*gemmNR + 3
						const g = 8
						all, c := guarded((rows-1)*ldc+q*gemmNR, g)
						c0 := nnRand(r, len(c))
						for i := range rows {
							copy(c[i*ldc:i*ldc+q*gemmNR], c0[i*ldc:])
						}
						fn(kc, &a[0], &b[0], ps, &c[0], ldc, add)
						checkGuards(t, name, all, g, rows, q*gemmNR, ldc)
						var got []float32
						var want []float64
						for i := range rows {
							for j := range q * gemmNR {
								var s float64
								for p := range kc {
									s += float64(a[p*rows+i]) * float64(b[(j/gemmNR)*ps+p*gemmNR+j%gemmNR])
								}
								if add != 0 {
									s += float64(c0[i*ldc+j])
								}
								got = append(got, c[i*ldc+j])
								want = append(want, s)
							}
						}
						nnClose(t, name, got, want, 1e-5)
					}
				}
			}
		}
	}
}

// gemmCase is one random product for TestPackedSgemm.
type gemmCase struct {
	m, n, k        int
	transA, transB bool
	alpha, beta    float32
	preA, preB     bool
	threads        int
	lda, ldb, ldc  int
	a, b, c0       []float32
	want           []float64
	name           string
}

func newGemmCase(r *rand.Rand, m, n, k int, i int) gemmCase {
	c := gemmCase{m: m, n: n, k: k, transA: i%2 == 1, transB: i%3 == 1, preA: i%4 == 2, preB: i%5 >= 2, threads: 1 + i%3}
	c.alpha, c.beta = 1, 0
	switch i % 3 {
	case 1:
		c.alpha, c.beta = 0.5, 1
	case 2:
		c.beta = -1.5
	}
	c.lda, c.ldb, c.ldc = k+i%3, n+i%2, n+i%4
	if c.transA {
		c.lda = m + i%2
	}
	if c.transB {
		c.ldb = k + i%3
	}
	ar, ac := matDims(m, k, c.transA)
	br, bc := matDims(k, n, c.transB)
	c.a = nnRand(r, (ar-1)*c.lda+ac)
	c.b = nnRand(r, (br-1)*c.ldb+bc)
	c.c0 = nnRand(r, (m-1)*c.ldc+n)
	c.want = refGemm(c.transA, c.transB, m, n, k, float64(c.alpha), c.a, c.lda, c.b, c.ldb, float64(c.beta), c.c0, c.ldc)
	c.name = fmt.Sprintf("m%d n%d k%d trans%t,%t alpha%v beta%v pre%t,%t threads%d", m, n, k, c.transA, c.transB, c.alpha, c.beta, c.preA, c.preB, c.threads)
	return c
}

// run computes the case with gc into a guarded C and returns C's m×n.
func (c *gemmCase) run(t *testing.T, gc *gemmCtx) []float32 {
	t.Helper()
	const g = 16
	all, out := guarded(len(c.c0), g)
	for i := range c.m {
		copy(out[i*c.ldc:i*c.ldc+c.n], c.c0[i*c.ldc:])
	}
	ga := gemmA{data: c.a, ld: c.lda, trans: c.transA}
	if c.preA {
		ga = gemmA{packed: prepackA(c.a, c.lda, c.transA, c.alpha, c.m, c.k)}
	}
	gb := gemmB{data: c.b, ld: c.ldb, trans: c.transB}
	if c.preB {
		gb = gemmB{packed: prepackB(c.b, c.ldb, c.transB, c.k, c.n)}
	}
	gc.run(c.m, c.n, c.k, c.alpha, ga, gb, c.beta, out, c.ldc)
	checkGuards(t, c.name, all, g, c.m, c.n, c.ldc)
	got := make([]float32, 0, c.m*c.n)
	for i := range c.m {
		got = append(got, out[i*c.ldc:i*c.ldc+c.n]...)
	}
	return got
}

// TestPackedSgemm runs the packed SGEMM with every kernel set on random
// ragged sizes, packed and unpacked operands, one to three threads,
// against a float64 reference, with guard cells around C; the kernel sets
// agree within rounding.
func TestPackedSgemm(t *testing.T) {
	r := nnRng(12)
	sizes := []int{1, 2, 5, 6, 7, 13, 16, 17, 33, 97, 100}
	ks := []int{1, 3, 16, 255, 256, 257, 600}
	pools := map[int]*workerPool{1: nil, 2: newWorkerPool(2), 3: newWorkerPool(3)}
	defer func() {
		for _, p := range pools {
			p.close()
		}
	}()
	i := 0
	for range 120 {
		i++
		m, n, k := sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))], ks[r.IntN(len(ks))]
		if i%10 == 0 {
			m, n = 200+r.IntN(60), 300+r.IntN(40) // past one gemmMC block
		}
		c := newGemmCase(r, m, n, k, i)
		for setName, set := range kernelSets() {
			withKernels(t, set, func() {
				got := c.run(t, newGemmCtx(pools[c.threads]))
				nnClose(t, setName+" "+c.name, got, c.want, 2e-5*math.Sqrt(float64(k)))
			})
		}
	}
}

// TestPackedSgemmRowsAndThreads checks that each row of C is bit-identical
// whether computed alone, with other rows, or on several threads.
func TestPackedSgemmRowsAndThreads(t *testing.T) {
	r := nnRng(13)
	p3 := newWorkerPool(3)
	defer p3.close()
	for _, mnk := range [][3]int{{64, 512, 784}, {7, 100, 300}, {13, 33, 600}, {5, 10, 2048}, {3, 70, 1100}, {2, 20, 1024}} {
		m, n, k := mnk[0], mnk[1], mnk[2]
		a, b := nnRand(r, m*k), nnRand(r, k*n)
		pb := prepackB(b, n, false, k, n)
		all := make([]float32, m*n)
		newGemmCtx(p3).run(m, n, k, 1, gemmA{data: a, ld: k}, gemmB{packed: pb}, 0, all, n)
		one := make([]float32, n)
		gc := newGemmCtx(nil)
		for i := range m {
			gc.run(1, n, k, 1, gemmA{data: a[i*k:], ld: k}, gemmB{data: b, ld: n}, 0, one, n)
			for j := range n {
				if math.Float32bits(one[j]) != math.Float32bits(all[i*n+j]) {
					t.Fatalf("m%d n%d k%d: row %d col %d: %v alone, %v batched on 3 threads", m, n, k, i, j, one[j], all[i*n+j])
				}
			}
		}
	}
}

// TestPackedSgemmAllocs checks that a call allocates nothing, on one
// thread and on two.
func TestPackedSgemmAllocs(t *testing.T) {
	r := nnRng(14)
	m, n, k := 64, 512, 300
	a, b, c := nnRand(r, m*k), nnRand(r, k*n), make([]float32, m*n)
	p2 := newWorkerPool(2)
	defer p2.close()
	for _, pool := range []*workerPool{nil, p2} {
		gc := newGemmCtx(pool)
		gc.sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
		if got := testing.AllocsPerRun(20, func() {
			gc.sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
		}); got != 0 {
			t.Errorf("threads %d: %v allocations per call", pool.size(), got)
		}
	}
}
