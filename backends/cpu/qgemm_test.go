package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// needQAsm skips a test that would compare the Go int8 kernel with
// itself: this build or CPU runs no int8 assembly kernel.
func needQAsm(t *testing.T) {
	t.Helper()
	if len(qkernAsm) == 0 {
		t.Skip("no int8 assembly kernels in this build or on this CPU: the kernel would be compared with itself")
	}
}

// qFill fills v with random bytes, or with one value when fill >= 0.
func qFill(r *rand.Rand, v []byte, fill int) {
	for i := range v {
		if fill >= 0 {
			v[i] = byte(fill)
		} else {
			v[i] = byte(r.IntN(256))
		}
	}
}

// TestQkernMatchesGo checks every assembly int8 micro-kernel against
// qkernGo on random packed operands and on the extremes (int8 -128 or 127
// times uint8 255 at every k, the products whose pair sums saturate an
// int16), with guard cells around the tile.
func TestQkernMatchesGo(t *testing.T) {
	needQAsm(t)
	r := rand.New(rand.NewPCG(29, 1))
	const guard = 5
	const poison = -7777
	for _, kern := range qkernAsm {
		t.Logf("kernel %s", kern.name)
		l := kern.l
		for _, kg := range []int{0, 1, 2, 3, 7, 64, 301} {
			for _, ext := range [][2]int{{-1, -1}, {0x80, 255}, {0x7f, 255}, {0x80, 0}} {
				k := kg * l.g
				lda := l.aStride(k)
				src := make([]byte, qMR*k)
				qFill(r, src, ext[0])
				a := make([]byte, qMR*lda)
				packQA(l, a, src, k, qMR, k, false, make([]int32, qMR))
				b := make([]byte, l.panelSize(k))
				bsrc := make([]byte, k*qNR)
				qFill(r, bsrc, ext[1])
				packQBPanel(l, b, bsrc, qNR, k, qNR, 0, 0, make([]int32, qNR))
				ldc := qNR + 2*guard
				got, want, q := qTileCase(r, ldc, guard, poison)
				kern.run(a, lda, b, kg, got[guard:], ldc, &q)
				qkernGo(l, a, lda, b, kg, want[guard:], ldc, &q)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s kg=%d extremes %v: element %d (row %d, column %d) is %d, want %d", kern.name, kg, ext, i, (i-guard)/ldc, (i-guard)%ldc, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestQkernFloatMatchesGo checks the kernels that store scaled float32
// tiles (runF) against qkernGo followed by qTileScale.apply, bit for
// bit, with one multiplier and one a column, with and without bias, and
// guard cells around the tile.
func TestQkernFloatMatchesGo(t *testing.T) {
	needQAsm(t)
	r := rand.New(rand.NewPCG(29, 2))
	const guard = 5
	const poison = -7777
	for _, kern := range qkernAsm {
		if kern.runF == nil {
			continue
		}
		l := kern.l
		for _, kg := range []int{0, 1, 5, 64} {
			for _, sc := range []struct {
				name       string
				cols, bias bool
			}{{"one", false, false}, {"one+bias", false, true}, {"columns", true, false}, {"columns+bias", true, true}} {
				k := kg * l.g
				lda := l.aStride(k)
				src := make([]byte, qMR*k)
				qFill(r, src, -1)
				a := make([]byte, qMR*lda)
				packQA(l, a, src, k, qMR, k, false, make([]int32, qMR))
				b := make([]byte, l.panelSize(k))
				bsrc := make([]byte, k*qNR)
				qFill(r, bsrc, -1)
				packQBPanel(l, b, bsrc, qNR, k, qNR, 0, 0, make([]int32, qNR))
				mult, bias := make([]float32, 2*qNR), make([]float32, 2*qNR)
				for j := range mult {
					mult[j] = float32(r.NormFloat64() * 1e-4)
					bias[j] = float32(r.NormFloat64())
				}
				fs := qFloatScale{mult: mult[:1]}
				if sc.cols {
					fs.mult = mult
				}
				if sc.bias {
					fs.bias = bias
				}
				var ts qTileScale
				ts.set(&fs, qNR)
				ldc := qNR + 2*guard
				got, want, q := qTileCase(r, ldc, guard, poison)
				kern.runF(a, lda, b, kg, got[guard:], ldc, &q, &ts)
				qkernGo(l, a, lda, b, kg, want[guard:], ldc, &q)
				ts.apply(want[guard:], ldc, qMR)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s kg=%d %s: element %d (row %d, column %d) has bits %#x, want %#x", kern.name, kg, sc.name, i, (i-guard)/ldc, (i-guard)%ldc, uint32(got[i]), uint32(want[i]))
					}
				}
			}
		}
	}
}

// qTileCase returns two tiles of qMR rows ldc apart, guard cells
// before and after, every cell poison, and a random correction.
func qTileCase(r *rand.Rand, ldc, guard int, poison int32) (got, want []int32, q qCorr) {
	got, want = make([]int32, qMR*ldc+guard), make([]int32, qMR*ldc+guard)
	for i := range got {
		got[i], want[i] = poison, poison
	}
	for j := range qNR {
		q.cb[j], q.zb[j] = r.Int32(), int32(r.IntN(512)-256)
	}
	for i := range qMR {
		q.za[i], q.rs[i] = int32(r.IntN(512)-256), r.Int32()
	}
	return got, want, q
}

// qRef is the reference: Σ (a-za)(b-zb) widened to int32, a m×k and b
// k×n, za per row (one or m), zb per column (one or n).
func qRef(a, b []byte, aU8, bU8 bool, za, zb []int32, m, n, k int) []int32 {
	val := func(v byte, u8 bool) int32 {
		if u8 {
			return int32(v)
		}
		return int32(int8(v))
	}
	c := make([]int32, m*n)
	for i := range m {
		for j := range n {
			var s int32
			for p := range k {
				s += (val(a[i*k+p], aU8) - za[i%len(za)]) * (val(b[p*n+j], bU8) - zb[j%len(zb)])
			}
			c[i*n+j] = s
		}
	}
	return c
}

// qCallFor builds a call on ctx's kernel for the operands as qRef reads
// them; prepack packs B whole first.
func qCallFor(g *qgemmCtx, a, b []byte, aU8, bU8 bool, za, zb []int32, m, n, k int, prepack bool, c []int32) qgemmCall {
	l := g.kern.l
	pa := qPackedA{data: make([]byte, roundUp(m, qMR)*l.aStride(k)), lda: l.aStride(k), rowSum: make([]int32, m)}
	packQA(l, pa.data, a, k, m, k, aU8, pa.rowSum)
	zae, zbe := make([]int32, len(za)), make([]int32, len(zb))
	for i, v := range za {
		zae[i] = v + qShiftA(aU8)
	}
	for i, v := range zb {
		zbe[i] = v + qShiftB(!bU8)
	}
	cl := qgemmCall{m: m, n: n, k: k, a: pa, za: zae, zb: zbe, c: c, ldc: n}
	if prepack {
		cl.b = packQB(l, b, n, k, n, !bU8)
	} else {
		cl.raw, cl.ldb, cl.mask = b, n, qMaskB(!bU8)
	}
	return cl
}

// TestQgemmMatchesReference checks the int8 GEMM, on every kernel this
// build runs, one and two threads, against the widened reference for
// every pair of element types, scalar and vector zero points, prepacked
// and raw B, and edge sizes; the extremes check the wrapped sums.
func TestQgemmMatchesReference(t *testing.T) {
	kerns := append([]qKernel{{name: "go", l: qLayout{g: 4}, run: qrunGo4}}, qkernAsm...)
	r := rand.New(rand.NewPCG(29, 2))
	pool := newWorkerPool(2)
	defer pool.close()
	// The last two split across two threads by rows and by panels; the
	// one-row shapes run the kernels' one-row forms.
	shapes := [][3]int{{1, 1, 1}, {3, 5, 7}, {8, 32, 4}, {9, 33, 5}, {17, 70, 129}, {64, 64, 300}, {2, 200, 1000}, {100, 3, 0}, {1, 100, 300}, {1, 64, 17}, {1, 40, 16}, {300, 20, 200}, {64, 200, 100}}
	for _, kern := range kerns {
		for _, threads := range []*workerPool{nil, pool} {
			g := newQgemmCtx(threads)
			g.kern = kern
			for _, sh := range shapes {
				m, n, k := sh[0], sh[1], sh[2]
				for ti, tp := range [][2]bool{{true, false}, {false, false}, {true, true}, {false, true}} {
					a, b := make([]byte, m*k), make([]byte, k*n)
					fa, fb := -1, -1
					if ti == 0 && sh == shapes[5] {
						fa, fb = 255, 0x80 // uint8 255 times int8 -128 everywhere
					}
					qFill(r, a, fa)
					qFill(r, b, fb)
					za, zb := []int32{int32(r.IntN(256))}, []int32{int32(r.IntN(256))}
					if !tp[0] {
						za[0] -= 128
					}
					if !tp[1] {
						zb[0] -= 128
					}
					if ti%2 == 1 {
						za = make([]int32, m)
						for i := range za {
							za[i] = int32(r.IntN(256)) - 128
						}
						zb = make([]int32, n)
						for i := range zb {
							zb[i] = int32(r.IntN(256)) - 128
						}
					}
					want := qRef(a, b, tp[0], tp[1], za, zb, m, n, k)
					for _, prepack := range []bool{false, true} {
						name := fmt.Sprintf("%s threads=%d %dx%dx%d u8=%v prepack=%v", kern.name, threads.size(), m, n, k, tp, prepack)
						got := make([]int32, m*n)
						g.run(qCallFor(g, a, b, tp[0], tp[1], za, zb, m, n, k, prepack, got))
						for i := range got {
							if got[i] != want[i] {
								t.Fatalf("%s: C[%d][%d] is %d, want %d", name, i/n, i%n, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}

// TestQgemmNoAllocs checks that a steady-state int8 GEMM allocates
// nothing, on one thread and two.
func TestQgemmNoAllocs(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for _, p := range []*workerPool{nil, pool} {
		g := newQgemmCtx(p)
		m, n, k := 64, 96, 256
		a, b := make([]byte, m*k), make([]byte, k*n)
		c := make([]int32, m*n)
		for _, prepack := range []bool{false, true} {
			cl := qCallFor(g, a, b, true, false, []int32{3}, []int32{1}, m, n, k, prepack, c)
			g.run(cl)
			if got := testing.AllocsPerRun(20, func() { g.run(cl) }); got != 0 {
				t.Errorf("threads=%d prepack=%v: %v allocations a call, want 0", p.size(), prepack, got)
			}
		}
	}
}

// TestQpackMatchesGo checks every assembly panel packer (through
// qKernel.packPanel) against packQBPanel on random matrices, both masks,
// whole and partial panels, with guard bytes after the panel.
func TestQpackMatchesGo(t *testing.T) {
	needQAsm(t)
	r := rand.New(rand.NewPCG(29, 6))
	const guard = 9
	for _, kern := range qkernAsm {
		if kern.pack == nil {
			continue
		}
		t.Logf("packer %s", kern.name)
		l := kern.l
		for _, k := range []int{0, 1, 3, 4, 5, 8, 31, 64, 577} {
			for _, n := range []int{qNR, qNR + 7, 2*qNR + 3} {
				for _, mask := range []byte{0, 0x80} {
					ld := n + r.IntN(5)
					src := make([]byte, k*ld)
					qFill(r, src, -1)
					for j0 := 0; j0 < n; j0 += qNR {
						ps := l.panelSize(k)
						got, want := make([]byte, ps+guard), make([]byte, ps+guard)
						qFill(r, got, 0x5a)
						qFill(r, want, 0x5a)
						gcs, wcs := make([]int32, qNR+1), make([]int32, qNR+1)
						gcs[qNR], wcs[qNR] = -5, -5
						kern.packPanel(got, src, ld, k, n, j0, mask, gcs)
						packQBPanel(l, want, src, ld, k, n, j0, mask, wcs)
						for i := range got {
							if got[i] != want[i] {
								t.Fatalf("%s k=%d n=%d j0=%d mask=%#x: byte %d is %d, want %d", kern.name, k, n, j0, mask, i, got[i], want[i])
							}
						}
						for j := range gcs {
							if gcs[j] != wcs[j] && (j == qNR || j < n-j0) {
								t.Fatalf("%s k=%d n=%d j0=%d mask=%#x: column sum %d is %d, want %d", kern.name, k, n, j0, mask, j, gcs[j], wcs[j])
							}
						}
					}
				}
			}
		}
	}
}

// TestRequantMatchesGo checks requantRun at each vector width this CPU
// runs (AVX-512, AVX2) against requantRunGo on random and extreme sums,
// multipliers from tiny to huge, ties, both output ranges, with guard
// bytes after the output.
func TestRequantMatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector requantization on this CPU: requantRun is requantRunGo")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(29, 7))
		const guard = 5
		mults := []float32{0.25, 0.5, 1, 1e-3, 3.7e-5, 123.4, -0.01, 1e30, 0}
		for _, m := range mults {
			for _, rg := range [][3]float64{{0, 255, 0}, {0, 255, 128}, {-128, 127, 0}, {-128, 127, -3}} {
				for _, n := range []int{1, 15, 16, 17, 64, 333} {
					acc := make([]int32, n)
					for i := range acc {
						switch i % 5 {
						case 0:
							acc[i] = r.Int32() - r.Int32()
						case 1:
							acc[i] = int32(r.IntN(4000) - 2000)
						case 2:
							acc[i] = int32(2*r.IntN(600) - 600) // ties at m = 0.5
						case 3:
							acc[i] = []int32{math.MaxInt32, math.MinInt32, 0, 1 << 24, 1<<24 + 1}[r.IntN(5)]
						default:
							acc[i] = int32(r.IntN(200))
						}
					}
					got, want := make([]byte, n+guard), make([]byte, n+guard)
					requantRunAt(l, got[:n], acc, m, rg[2], rg[0], rg[1])
					requantRunGo(want[:n], acc, m, rg[2], rg[0], rg[1])
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("level %d m=%g range %v n=%d: byte %d (acc %d) is %d, want %d", l, m, rg, n, i, acc[min(i, n-1)], got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestPackQAMatchesGo checks packQA with each assembly row packer this
// CPU runs (AVX-512 VNNI and AVX2 for the 4-group layout, AVX2 for the
// AVX2 kernel's int16 layout) against packQA in Go (the packer nil) on
// random rows of many lengths, both masks, with guard bytes after the
// packed rows.
func TestPackQAMatchesGo(t *testing.T) {
	type packer = func(dst, src []byte, n int, mask byte) int32
	type pcase struct {
		name string
		l    qLayout
		p    packer
		slot *packer // the variable packQA reads for l
	}
	var cases []pcase
	for i, p := range qpackRowAsm {
		cases = append(cases, pcase{fmt.Sprintf("4-group %d", i), qLayout{g: 4}, p, &qpackRow})
	}
	if qpackRowWide != nil {
		cases = append(cases, pcase{"int16", qLayout{g: 2, wide: true}, qpackRowWide, &qpackRowWide})
	}
	if len(cases) == 0 {
		t.Skip("no assembly A packer in this build or on this CPU: packQA would be compared with itself")
	}
	savedRow, savedWide := qpackRow, qpackRowWide
	defer func() { qpackRow, qpackRowWide = savedRow, savedWide }()
	r := rand.New(rand.NewPCG(29, 8))
	const guard = 7
	for _, c := range cases {
		for _, k := range []int{1, 15, 16, 17, 63, 64, 65, 128, 200, 1001} {
			for _, m := range []int{1, 9} {
				for _, u8 := range []bool{false, true} {
					src := make([]byte, m*k)
					qFill(r, src, -1)
					if k == 128 {
						qFill(r, src, 0x7f)
					}
					if k == 64 {
						qFill(r, src, 0x80)
					}
					size := roundUp(m, qMR) * c.l.aStride(k)
					got, want := make([]byte, size+guard), make([]byte, size+guard)
					qFill(r, got, 0x33)
					copy(want, got)
					gs, ws := make([]int32, m), make([]int32, m)
					*c.slot = c.p
					packQA(c.l, got, src, k, m, k, u8, gs)
					*c.slot = nil
					packQA(c.l, want, src, k, m, k, u8, ws)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s k=%d m=%d u8=%v: byte %d is %d, want %d", c.name, k, m, u8, i, got[i], want[i])
						}
					}
					for i := range gs {
						if gs[i] != ws[i] {
							t.Fatalf("%s k=%d m=%d u8=%v: row sum %d is %d, want %d", c.name, k, m, u8, i, gs[i], ws[i])
						}
					}
				}
			}
		}
	}
}

// TestDynQuantMatchesGo checks dynRange and dynQuant at each vector width the
// CPU runs (AVX-512, AVX2) against their Go twins on random inputs of many lengths,
// with NaN, infinities, signed zeros and ties, and guard bytes after the
// output.
func TestDynQuantMatchesGo(t *testing.T) {
	needAsm(t)
	if len(rqLevels()) == 0 {
		t.Skip("no vector code on this CPU: dynRange and dynQuant are their Go twins")
	}
	for _, l := range rqLevels() {
		r := rand.New(rand.NewPCG(29, 9))
		const guard = 3
		specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0.5, 2.5, -1e-40, 3e38}
		for _, n := range []int{1, 15, 16, 17, 100, 1000} {
			for variant := range 5 {
				x := make([]float32, n)
				for i := range x {
					x[i] = (r.Float32()*2 - 1) * []float32{1, 1e3, 1e-3, 1, 1}[variant]
					if variant == 3 {
						x[i] = float32(r.IntN(11)-3) * 0.5
					}
					if variant == 4 && r.IntN(40) == 0 {
						x[i] = specials[r.IntN(len(specials))]
					}
				}
				lo, hi, nan := dynRangeAt(l, x)
				wlo, whi, wnan := dynRangeGo(x)
				if math.Float32bits(lo) != math.Float32bits(wlo) || math.Float32bits(hi) != math.Float32bits(whi) || nan != wnan {
					t.Fatalf("level %d n=%d variant %d: range %v %v NaN %v, want %v %v %v", l, n, variant, lo, hi, nan, wlo, whi, wnan)
				}
				scale := float32(1)
				if hi != lo {
					scale = (hi - lo) / 255
				}
				zp := roundClamp(float64(min(max(0-lo/scale, 0), 255)), 0, 0, 255)
				got, want := make([]byte, n+guard), make([]byte, n+guard)
				dynQuantAt(l, got[:n], x, scale, zp, nan)
				dynQuantGo(want[:n], x, scale, zp)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("level %d n=%d variant %d: byte %d (x %v) is %d, want %d", l, n, variant, i, x[min(i, n-1)], got[i], want[i])
					}
				}
			}
		}
	}
}

// TestQgemmSplits checks that the shapes TestQgemmMatchesReference runs
// on two threads do split, by rows and by panels.
func TestQgemmSplits(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	g := newQgemmCtx(pool)
	for _, tc := range []struct {
		m, n, k int
		byRows  bool
	}{{300, 20, 200, true}, {64, 200, 100, false}} {
		var mu sync.Mutex
		var seen qgemmCall
		cl := qCallFor(g, make([]byte, tc.m*tc.k), make([]byte, tc.k*tc.n), true, false, []int32{0}, []int32{0}, tc.m, tc.n, tc.k, false, make([]int32, tc.m*tc.n))
		g.kern.run, g.kern.pack = func(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr) {
			mu.Lock()
			seen = g.call
			mu.Unlock()
			qkernBest.run(a, lda, b, kg, c, ldc, q)
		}, qkernBest.pack
		g.run(cl)
		g.kern = qkernBest
		if seen.parts != 2 || seen.byRows != tc.byRows {
			t.Errorf("%dx%dx%d: %d parts, by rows %v; want 2, %v", tc.m, tc.n, tc.k, seen.parts, seen.byRows, tc.byRows)
		}
	}
}

// TestQkern1MatchesGo checks the one-row kernel (run1) of every kernel
// that has one against row 0 of qkernGo's tile on random packed operands
// and corrections, many k, with guard cells after the row.
func TestQkern1MatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 11))
	ran := false
	for _, kern := range qkernAsm {
		if kern.run1 == nil {
			continue
		}
		ran = true
		l := kern.l
		for _, kg := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 64, 75} {
			a := make([]byte, qMR*l.g*max(kg, 1))
			b := make([]byte, qNR*l.g*max(kg, 1))
			qFill(r, a, -1)
			qFill(r, b, -1)
			var q qCorr
			for j := range qNR {
				q.cb[j], q.zb[j] = r.Int32()-r.Int32(), int32(r.IntN(256))-128
			}
			for i := range qMR {
				q.za[i], q.rs[i] = int32(r.IntN(256))-128, r.Int32()-r.Int32()
			}
			const guard = 6
			got := make([]int32, qNR+guard)
			for i := range got {
				got[i] = -77
			}
			want := make([]int32, qMR*qNR)
			kern.run1(a, b, kg, got[:qNR], &q)
			qkernGo(l, a, l.g*max(kg, 1), b, kg, want, qNR, &q)
			for i := range got {
				w := int32(-77)
				if i < qNR {
					w = want[i]
				}
				if got[i] != w {
					t.Fatalf("%s kg=%d: C[0][%d] is %d, want %d", kern.name, kg, i, got[i], w)
				}
			}
		}
	}
	if !ran {
		t.Skip("no one-row assembly kernel in this build or on this CPU: it would be compared with itself")
	}
}
