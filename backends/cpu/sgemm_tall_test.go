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
		if tk.minRows > 0 {
			for h := tk.minRows; h < tk.rows; h++ {
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
						name := fmt.Sprintf("%s r%d q%d stream %v kc%d add%d ep%d", setName, tk.rows, q, f.stream, kc, add, ep)
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
						fn(kc, &a[0], &b[0], ps, &c1[0], ldc, add, lda, &bias[0], ep)
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
// tiles, every row in the fewest tiles of 4 to 8 rows, heights at most
// one apart; without them, or when a tile would be shorter than 4, in
// tiles of 8 with the rest left over.
func TestTallPlan(t *testing.T) {
	short := goShortTallKernels(8, 2, 4)[gemmMR-1].tall
	only8 := goTallKernels(8, 2)[gemmMR-1].tall
	tests := []struct {
		name string
		tk   *tallKernels[float32]
		n    int
		want []int // tile heights; the rows after them are left over
	}{
		{"short", &short, 0, nil},
		{"short", &short, 3, nil},
		{"short", &short, 4, []int{4}},
		{"short", &short, 7, []int{7}},
		{"short", &short, 8, []int{8}},
		{"short", &short, 9, []int{5, 4}},
		{"short", &short, 10, []int{5, 5}},
		{"short", &short, 17, []int{6, 6, 5}},
		{"short", &short, 25, []int{7, 6, 6, 6}},
		{"short", &short, 49, []int{7, 7, 7, 7, 7, 7, 7}},
		{"short", &short, 96, []int{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}},
		{"only8", &only8, 3, nil},
		{"only8", &only8, 9, []int{8}},
		{"only8", &only8, 49, []int{8, 8, 8, 8, 8, 8}},
	}
	for _, tt := range tests {
		p := tt.tk.plan(tt.n)
		var got []int
		for o := 0; o < p.covered; o += got[len(got)-1] {
			got = append(got, p.height(o))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s plan(%d): tiles %v, want %v", tt.name, tt.n, got, tt.want)
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
		for i := range 60 {
			c := newGemmCase(r, ms[r.IntN(len(ms))], ns[r.IntN(len(ns))], kk[r.IntN(len(kk))], i)
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
							fn(kc, &a[0], &b[0], ps, &c1[0], ldc, add, lda, &bias[0], ep)
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
