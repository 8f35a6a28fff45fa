package cpu

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"
)

// TestTallKernelsMatchGo checks every set's tall kernels against its
// one-row kernel, row by row and bit for bit (the Go set's are their
// pure-Go twins), storing and adding, with guard cells
// around C.
func TestTallKernelsMatchGo(t *testing.T) {
	// Every height: the tall one and, where the set has them, the
	// shorter ones.
	r := nnRng(31)
	for setName, ks := range kernelSets() {
		tk := ks[gemmMR-1].tall
		if tk.rows == 0 {
			continue
		}
		type form struct {
			rows, q int
			stream  bool
			fn      tallKernelOf[float32]
		}
		var forms []form
		heights := []int{tk.rows}
		for h := 1; h < tk.rows; h++ {
			if tk.short[h].wide != nil {
				heights = append(heights, h)
			}
		}
		for _, h := range heights {
			set := tk.set(h)
			forms = append(forms, form{h, tk.q, false, set.wide}, form{h, 1, false, set.one})
			if set.wideStream != nil {
				// The prefetching forms, for products that stream B.
				forms = append(forms, form{h, tk.q, true, set.wideStream}, form{h, 1, true, set.oneStream})
			}
		}
		for _, f := range forms {
			tk.rows = f.rows
			q, fn := f.q, f.fn
			for _, kc := range []int{0, 1, 7, 64, 255, 256} {
				for add := range 2 {
					for ep := range tallBias | tallRelu + 1 {
						// Either prefetch distance: the sums do not depend on it.
						pf := streamNear
						if (kc+add+ep)%2 == 1 {
							pf = streamFar
						}
						name := fmt.Sprintf("%s r%d q%d stream %v kc%d add%d ep%d pf%d", setName, tk.rows, q, f.stream, kc, add, ep, pf)
						lda := kc + 3
						a := nnRand(r, (tk.rows-1)*lda+kc+1)
						ps := kc*gemmNR + 5 // panels not adjacent
						b := nnRand(r, q*ps+1)
						ldc := q*gemmNR + 3
						const g = 8
						n := (tk.rows-1)*ldc + q*gemmNR
						all1, c1 := guarded(n, g)
						all2, c2 := guarded(n, g)
						c0 := nnRand(r, n)
						copy(c1, c0)
						copy(c2, c0)
						bias := nnRand(r, q*gemmNR)
						fn(kc, &a[0], &b[0], ps, &c1[0], ldc, add, lda, &bias[0], ep, pf)
						// Row i of A in place is a packed one-row micro-panel.
						for i := range tk.rows {
							for j := range q {
								ks[0].one(kc, &a[i*lda], &b[j*ps], ps, &c2[i*ldc+j*gemmNR], ldc, add)
							}
						}
						var e gemmEpilogue
						if ep&tallBias != 0 {
							e.bias = bias
						}
						if ep&tallRelu != 0 {
							e.act.act = actRelu
						}
						e.applyRows(c2, ldc, 0, tk.rows, 0, q*gemmNR)
						for i := range all1 {
							if math.Float32bits(all1[i]) != math.Float32bits(all2[i]) {
								t.Fatalf("%s: cell %d is %v, %v by the one-row kernel", name, i-g, all1[i], all2[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestTallPlan checks how blocks of rows are covered: with shorter
// tiles, every row in the fewest tiles of 4 (1 when B is past L2) to 8
// rows, heights at most one apart; without them, or when a tile would
// be shorter, in tiles of 8 with the rest left over.
func TestTallPlan(t *testing.T) {
	short := goShortTallKernels(8, 2, 4, 1)[gemmMR-1].tall
	only8 := goTallKernels(8, 2)[gemmMR-1].tall
	tests := []struct {
		name string
		tk   *tallKernels[float32]
		few  bool // B past L2: tiles down to one row
		n    int
		want []int // tile heights; the rows after them are left over
	}{
		{"short few", &short, true, 1, []int{1}},
		{"short few", &short, true, 3, []int{3}},
		{"short few", &short, true, 9, []int{5, 4}},
		{"short few", &short, true, 17, []int{6, 6, 5}},
		{"only8 few", &only8, true, 3, nil},
		{"short", &short, false, 0, nil},
		{"short", &short, false, 3, nil},
		{"short", &short, false, 4, []int{4}},
		{"short", &short, false, 7, []int{7}},
		{"short", &short, false, 8, []int{8}},
		{"short", &short, false, 9, []int{5, 4}},
		{"short", &short, false, 10, []int{5, 5}},
		{"short", &short, false, 17, []int{6, 6, 5}},
		{"short", &short, false, 25, []int{7, 6, 6, 6}},
		{"short", &short, false, 49, []int{7, 7, 7, 7, 7, 7, 7}},
		{"short", &short, false, 96, []int{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}},
		{"only8", &only8, false, 3, nil},
		{"only8", &only8, false, 9, []int{8}},
		{"only8", &only8, false, 49, []int{8, 8, 8, 8, 8, 8}},
	}
	for _, tt := range tests {
		p := tt.tk.plan(tt.n, tt.few)
		var got []int
		for o := 0; o < p.covered; o += got[len(got)-1] {
			got = append(got, p.height(o))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s plan(%d, %v): tiles %v, want %v", tt.name, tt.n, tt.few, got, tt.want)
		}
	}
}

// TestTallProductSameBits checks that products computed with the tall
// kernels give the bits of the same set without them, on random ragged
// sizes, one to three threads, storing and adding, with guard cells.
func TestTallProductSameBits(t *testing.T) {
	r := nnRng(32)
	pools := map[int]*workerPool{1: nil, 2: newWorkerPool(2), 3: newWorkerPool(3)}
	defer func() {
		for _, p := range pools {
			p.close()
		}
	}()
	ms := []int{1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 40, 49, 64, 97, 196, 200}
	ns := []int{1, 10, 16, 17, 32, 48, 100, 512}
	kk := []int{1, 16, 255, 256, 257, 600}
	for setName, set := range kernelSets() {
		if set[gemmMR-1].tall.rows == 0 {
			continue
		}
		plain := set
		plain[gemmMR-1].tall = tallKernels[float32]{}
		// Random sizes, then B past L2 (gemmFewFloats) under one to
		// three rows and ragged blocks, where tiles of one to three rows
		// run.
		few := [][3]int{{1, 512, 600}, {2, 520, 600}, {3, 512, 513}, {9, 530, 600}, {1, 17, 20000}}
		for i := range 60 + len(few) {
			m, n, k := ms[r.IntN(len(ms))], ns[r.IntN(len(ns))], kk[r.IntN(len(kk))]
			if i >= 60 {
				m, n, k = few[i-60][0], few[i-60][1], few[i-60][2]
			}
			c := newGemmCase(r, m, n, k, i)
			c.transA, c.preA, c.alpha = false, false, 1 // A read in place
			c.lda = c.k + i%3
			c.a = nnRand(r, (c.m-1)*c.lda+c.k)
			var want, got []float32
			withKernels(t, plain, func() { want = c.run(t, newGemmCtx(pools[c.threads])) })
			withKernels(t, set, func() { got = c.run(t, newGemmCtx(pools[c.threads])) })
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("%s %s: element %d is %v, %v without tall kernels", setName, c.name, j, got[j], want[j])
				}
			}
		}
	}
}

// TestTallEpilogueSameBits checks that products with a fused epilogue
// (bias, Relu, both, a row bias, another activation) give the same bits
// with the tall kernels, which apply the first three in their store, as
// without them.
func TestTallEpilogueSameBits(t *testing.T) {
	r := nnRng(33)
	p2 := newWorkerPool(2)
	defer p2.close()
	eps := []struct {
		name          string
		bias, rowBias bool
		act           int
	}{{"bias", true, false, actNone}, {"relu", false, false, actRelu}, {"bias+relu", true, false, actRelu},
		{"rowbias+relu", false, true, actRelu}, {"bias+tanh", true, false, actTanh}}
	for setName, set := range kernelSets() {
		if set[gemmMR-1].tall.rows == 0 {
			continue
		}
		plain := set
		plain[gemmMR-1].tall = tallKernels[float32]{}
		for i := range 40 {
			m, n, k := 1+r.IntN(70), 1+r.IntN(90), 1+r.IntN(600)
			e := eps[i%len(eps)]
			var ep gemmEpilogue
			if e.bias {
				ep.bias = nnRand(r, n)
			}
			if e.rowBias {
				ep.rowBias = nnRand(r, m)
			}
			ep.act.act = e.act
			a, b := nnRand(r, m*k), nnRand(r, k*n)
			pb := prepackB(b, n, false, k, n)
			beta := float32(i % 2)
			c0 := nnRand(r, m*n)
			var pool *workerPool
			if i%3 == 2 {
				pool = p2
			}
			out := func(ks [gemmMR]kernelRow) []float32 {
				const g = 16
				all, c := guarded(m*n, g)
				copy(c, c0)
				withKernels(t, ks, func() {
					newGemmCtx(pool).runFused(m, n, k, 1, gemmA{data: a, ld: k}, gemmB{packed: pb}, beta, c, n, &ep)
				})
				checkGuards(t, setName, all, g, m, n, n)
				return c
			}
			want, got := out(plain), out(set)
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("%s m%d n%d k%d %s beta%v: element %d is %v, %v without tall kernels", setName, m, n, k, e.name, beta, j, got[j], want[j])
				}
			}
		}
	}
}

// halfTallSets are the half kernel sets for k with tall kernels that
// this build can run: the pure-Go twins always, the assembly ones where
// the CPU has AVX-512.
func halfTallSets(k halfKind) map[string]halfSet {
	g := goHalfKernels(k)
	g.rows[gemmMR-1].direct = func(kc int, a *float32, b *uint16, ps int, c *float32, ldc, add, lda int) {
		for i := range gemmMR {
			goHalfKernel(k, 1, 1, kc, (*float32)(unsafe.Add(unsafe.Pointer(a), 4*i*lda)), b, ps,
				(*float32)(unsafe.Add(unsafe.Pointer(c), 4*i*ldc)), ldc, add)
		}
	}
	g.rows[gemmMR-1].tall = goHalfTall(k, 8, 2)
	sets := map[string]halfSet{"go-tall": g}
	if hasHalfAsm(k) && hasAVX512 {
		hs := asmHalfKernels(k)
		hs.rows[gemmMR-1].tall = avx512HalfTall(k)
		sets["asm-avx512"] = hs
	}
	return sets
}

// TestTallHalfKernels checks the tall kernels reading 16-bit panels
// against their set's one-row kernel and the epilogue pass, bit for bit,
// with guard cells, as TestTallKernelsMatchGo does for float32.
func TestTallHalfKernels(t *testing.T) {
	r := nnRng(34)
	for _, hk := range []halfKind{halfF16, halfBF16} {
		for setName, hs := range halfTallSets(hk) {
			tk, one := hs.rows[gemmMR-1].tall, hs.rows[0].one
			for _, q := range []int{tk.q, 1} {
				fn := tk.wide
				if q == 1 {
					fn = tk.one
				}
				for _, kc := range []int{1, 7, 64, 256} {
					for add := range 2 {
						for ep := range tallBias | tallRelu + 1 {
							name := fmt.Sprintf("%s %s q%d kc%d add%d ep%d", hk, setName, q, kc, add, ep)
							lda := kc + 3
							a := nnRand(r, (tk.rows-1)*lda+kc)
							b := prepackBHalf(nnRand(r, kc*q*gemmNR), q*gemmNR, false, kc, q*gemmNR, hk)
							ps := kc * gemmNR
							ldc := q*gemmNR + 3
							const g = 8
							n := (tk.rows-1)*ldc + q*gemmNR
							all1, c1 := guarded(n, g)
							all2, c2 := guarded(n, g)
							c0 := nnRand(r, n)
							copy(c1, c0)
							copy(c2, c0)
							bias := nnRand(r, q*gemmNR)
							fn(kc, &a[0], &b[0], ps, &c1[0], ldc, add, lda, &bias[0], ep, streamNear)
							for i := range tk.rows {
								for j := range q {
									one(kc, &a[i*lda], &b[j*ps], ps, &c2[i*ldc+j*gemmNR], ldc, add)
								}
							}
							var e gemmEpilogue
							if ep&tallBias != 0 {
								e.bias = bias
							}
							if ep&tallRelu != 0 {
								e.act.act = actRelu
							}
							e.applyRows(c2, ldc, 0, tk.rows, 0, q*gemmNR)
							for i := range all1 {
								if math.Float32bits(all1[i]) != math.Float32bits(all2[i]) {
									t.Fatalf("%s: cell %d is %v, %v by the one-row kernel", name, i-g, all1[i], all2[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestTallHalfProductSameBits checks that products on 16-bit weights,
// with and without a fused epilogue, give the same bits with the tall
// kernels as without them, on random ragged sizes and two threads.
func TestTallHalfProductSameBits(t *testing.T) {
	r := nnRng(35)
	p2 := newWorkerPool(2)
	defer p2.close()
	for _, hk := range []halfKind{halfF16, halfBF16} {
		for setName, set := range halfTallSets(hk) {
			plain := set
			plain.rows[gemmMR-1].tall = tallKernels[uint16]{}
			for i := range 24 {
				m, n, k := 1+r.IntN(70), 1+r.IntN(90), 1+r.IntN(600)
				var ep *gemmEpilogue
				switch i % 3 {
				case 1:
					ep = &gemmEpilogue{bias: nnRand(r, n)}
				case 2:
					ep = &gemmEpilogue{bias: nnRand(r, n), act: epilogue{act: actRelu}}
				}
				a := nnRand(r, m*k)
				gb := gemmB{half: prepackBHalf(nnRand(r, k*n), n, false, k, n, hk), hk: hk}
				beta := float32(i % 2)
				c0 := nnRand(r, m*n)
				var pool *workerPool
				if i%2 == 1 {
					pool = p2
				}
				out := func(hs halfSet) []float32 {
					const g = 16
					all, c := guarded(m*n, g)
					copy(c, c0)
					saved := halfKernels[hk]
					halfKernels[hk] = hs
					newGemmCtx(pool).runFused(m, n, k, 1, gemmA{data: a, ld: k}, gb, beta, c, n, ep)
					halfKernels[hk] = saved
					checkGuards(t, setName, all, g, m, n, n)
					return c
				}
				want, got := out(plain), out(set)
				for j := range got {
					if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
						t.Fatalf("%s %s m%d n%d k%d case %d: element %d is %v, %v without tall kernels", hk, setName, m, n, k, i, j, got[j], want[j])
					}
				}
			}
		}
	}
}
