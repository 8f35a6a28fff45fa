package cpu

import "fmt"

// gemmA is op(A), m×k, for the packed SGEMM: a row-major matrix (data,
// ld, trans) that each call packs, or one packed once by prepackA.
type gemmA struct {
	data  []float32
	ld    int
	trans bool
	// packed is A prepacked by prepackA, with alpha applied; it wins over
	// data when set.
	packed []float32
	// half is A prepacked by prepackAHalf, in format hk; it wins over
	// data when set. Each block is widened into the worker's scratch.
	half []uint16
	hk   halfKind
}

// gemmB is op(B), k×n, for the packed SGEMM: a row-major matrix that
// each call packs, or one packed once by prepackB.
type gemmB struct {
	data  []float32
	ld    int
	trans bool
	// packed is B prepacked by prepackB; it wins over data when set.
	packed []float32
	// half is B prepacked by prepackBHalf, in format hk; it wins over
	// data when set. The half kernels read it.
	half []uint16
	hk   halfKind
}

// gemmCall is one C = alpha*op(A)*op(B) + beta*C, read by every part.
type gemmCall struct {
	m, n, k     int
	alpha, beta float32
	a           gemmA
	b           gemmB
	c           []float32
	ldc         int
	parts       int
	// ep, when set, is applied to C once its products are complete.
	ep *gemmEpilogue
}

// gemmEpilogue is what a fused kernel applies to each element of C after
// the product (and beta*C) is complete: bias[j] added to column j when
// bias is set, rowBias[i] to row i when rowBias is set, then the
// activation.
type gemmEpilogue struct {
	bias    []float32
	rowBias []float32
	act     epilogue
}

// applyRows applies e to rows [i0, i1) and columns [c0, c1) of C.
func (e *gemmEpilogue) applyRows(c []float32, ldc, i0, i1, c0, c1 int) {
	if e.act.act == actRelu && (e.bias == nil) != (e.rowBias == nil) {
		// The common bias then Relu, in one pass over each row.
		for i := i0; i < i1; i++ {
			row := c[i*ldc+c0 : i*ldc+c1]
			if e.bias != nil {
				addVecRelu32(row, e.bias[c0:c1])
			} else {
				addConstRelu32(row, e.rowBias[i])
			}
		}
		return
	}
	for i := i0; i < i1; i++ {
		row := c[i*ldc+c0 : i*ldc+c1]
		if e.bias != nil {
			addVec32(row, e.bias[c0:c1])
		}
		if e.rowBias != nil {
			addConst32(row, e.rowBias[i])
		}
		e.act.apply(row)
	}
}

// gemmWorker is one part's scratch, padded so that two threads' edge
// tiles never share a cache line.
type gemmWorker struct {
	a   []float32 // a packed gemmMC×gemmKC block of A
	acc []float32 // rowBlocks' per-block sums, grown when too small
	tmp [gemmTallMax * gemmNR]float32
	_   [cacheLine]byte
}

// gemmCtx runs packed SGEMMs for the kernels of one model: its scratch is
// shared by them (a model runs one kernel at a time) and its pool, when
// set, splits the columns of C across threads.
type gemmCtx struct {
	pool    *workerPool
	workers []gemmWorker
	// b is the packed B of a call whose B is not prepacked, grown only
	// when too small.
	b    []float32
	call gemmCall
	// dpad is the padded input that the model's direct convolutions of
	// column stride 1 share (conv_direct.go).
	dpad directPad
	// packedB counts the bytes of the model's prepacked weights
	// (sharePackedB), and prefetch is how far ahead, in bytes, the tall
	// tiles that stream B prefetch its panels (see choosePrefetch).
	packedB  int
	prefetch int
}

// The prefetch distances of gemmCtx.prefetch. streamNear, sixty-four
// steps of k, covers memory's latency for two or more panels when B
// comes from L3 (sixteen steps left 512-channel convolutions at 7×7,
// whose weights stream, 7–13% slower). streamFar, 1024 steps, keeps
// more lines in flight, which one row of A against weights read from
// memory needs to approach the machine's bandwidth; it slows products
// whose B is in L3, by filling the caches with lines not needed yet.
const (
	streamNear = 4 << 10
	streamFar  = 64 << 10
)

// streamFarBytes is the size of a model's prepacked weights from which
// its products prefetch streamFar ahead: 32 MiB, the L3 cache that a
// core of AMD's Zen 4 and Zen 5 shares with its complex (Intel's server
// cores have less per core). Weights past it cannot all stay in cache
// between runs, so each run reads most of them from memory.
const streamFarBytes = 32 << 20

// choosePrefetch sets g.prefetch from the size of the model's
// prepacked weights, once every kernel is built.
func (g *gemmCtx) choosePrefetch() {
	g.prefetch = streamNear
	if g.packedB >= streamFarBytes {
		g.prefetch = streamFar
	}
}

// newGemmCtx returns a context that uses pool (nil: one thread).
func newGemmCtx(pool *workerPool) *gemmCtx {
	g := &gemmCtx{pool: pool, workers: make([]gemmWorker, pool.size()), prefetch: streamNear}
	for i := range g.workers {
		g.workers[i].a = make([]float32, gemmMC*gemmKC)
	}
	return g
}

// roundUp rounds n up to a multiple of m.
func roundUp(n, m int) int { return (n + m - 1) / m * m }

// packedBSize is the length of op(B), k×n, packed.
func packedBSize(k, n int) int { return k * roundUp(n, gemmNR) }

// reserve grows the scratch that packs op(B) to hold a k×n operand, so
// that products up to that size allocate nothing.
func (g *gemmCtx) reserve(k, n int) {
	if need := packedBSize(k, n); len(g.b) < need {
		g.b = make([]float32, need)
	}
}

// packedASize is the length of op(A), m×k, packed.
func packedASize(m, k int) int { return m * k }

// sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major float32
// matrices: op(A) is m×k, op(B) is k×n and C is m×n. op(X) is X, or Xᵀ
// when the matching trans flag is set; lda, ldb and ldc are the row
// strides of A, B and C as stored. With beta == 0, C is overwritten (NaNs
// in C do not propagate).
//
// Each element of C is computed the same way whatever m is and whatever
// the thread count: the products over p, alpha applied to A's element
// first, are summed in blocks of gemmKC steps of increasing p, each block
// starting from zero, and the blocks are added in turn to beta*C. So
// computing rows together or one call per row gives bit-identical
// results.
func (g *gemmCtx) sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	g.run(m, n, k, alpha, gemmA{data: a, ld: lda, trans: transA}, gemmB{data: b, ld: ldb, trans: transB}, beta, c, ldc)
}

// run is sgemm with op(A) and op(B) either prepacked or not.
func (g *gemmCtx) run(m, n, k int, alpha float32, a gemmA, b gemmB, beta float32, c []float32, ldc int) {
	g.runFused(m, n, k, alpha, a, b, beta, c, ldc, nil)
}

// runFused is run followed by ep (nil: none) on every element of C,
// applied block by block while C is in cache.
func (g *gemmCtx) runFused(m, n, k int, alpha float32, a gemmA, b gemmB, beta float32, c []float32, ldc int, ep *gemmEpilogue) {
	if m <= 0 || n <= 0 {
		return
	}
	if len(c) < (m-1)*ldc+n {
		panic(fmt.Sprintf("sgemm: C has %d elements, want %d", len(c), (m-1)*ldc+n))
	}
	if k <= 0 || alpha == 0 {
		for i := range m {
			scaleRow(c[i*ldc:i*ldc+n], beta)
		}
		if ep != nil {
			ep.applyRows(c, ldc, 0, m, 0, n)
		}
		return
	}
	if ep != nil && ep.bias != nil && len(ep.bias) < n {
		panic(fmt.Sprintf("sgemm: bias has %d elements, want %d", len(ep.bias), n))
	}
	if ep != nil && ep.rowBias != nil && len(ep.rowBias) < m {
		panic(fmt.Sprintf("sgemm: row bias has %d elements, want %d", len(ep.rowBias), m))
	}
	checkOperands(m, n, k, a, b)
	if b.packed == nil && b.half == nil {
		if need := packedBSize(k, n); len(g.b) < need {
			g.b = make([]float32, need)
		}
	}
	panels := (n + gemmNR - 1) / gemmNR
	parts := 1
	if g.pool != nil {
		parts = min(g.pool.size(), panels, max(1, m*n*k/(1<<16)))
	}
	g.call = gemmCall{m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c, ldc: ldc, parts: parts, ep: ep}
	if parts == 1 {
		g.runPart(0)
	} else {
		g.pool.run(g, parts)
	}
	g.call = gemmCall{}
}

// checkOperands panics when A or B is too short for its shape.
func checkOperands(m, n, k int, a gemmA, b gemmB) {
	if a.half != nil {
		if len(a.half) < packedASize(m, k) {
			panic(fmt.Sprintf("sgemm: packed A has %d elements, want %d", len(a.half), packedASize(m, k)))
		}
	} else if a.packed != nil {
		if len(a.packed) < packedASize(m, k) {
			panic(fmt.Sprintf("sgemm: packed A has %d elements, want %d", len(a.packed), packedASize(m, k)))
		}
	} else if r, c := matDims(m, k, a.trans); len(a.data) < (r-1)*a.ld+c || a.ld < 0 {
		// Rows may overlap (ld < c): a strided view such as the windows
		// of a long convolution is only read.
		panic(fmt.Sprintf("sgemm: A has %d elements, stride %d, want %d×%d", len(a.data), a.ld, r, c))
	}
	if b.half != nil {
		if len(b.half) < packedBSize(k, n) {
			panic(fmt.Sprintf("sgemm: packed B has %d elements, want %d", len(b.half), packedBSize(k, n)))
		}
	} else if b.packed != nil {
		if len(b.packed) < packedBSize(k, n) {
			panic(fmt.Sprintf("sgemm: packed B has %d elements, want %d", len(b.packed), packedBSize(k, n)))
		}
	} else if r, c := matDims(k, n, b.trans); len(b.data) < (r-1)*b.ld+c || b.ld < c {
		panic(fmt.Sprintf("sgemm: B has %d elements, stride %d, want %d×%d", len(b.data), b.ld, r, c))
	}
}

// matDims returns the stored rows and columns of op(X), r×c.
func matDims(r, c int, trans bool) (int, int) {
	if trans {
		return c, r
	}
	return r, c
}

// scaleRow sets row to beta*row, or to zeros when beta is 0.
func scaleRow(row []float32, beta float32) {
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

// runPart computes part of the current call: the columns of panels
// [part*panels/parts, (part+1)*panels/parts).
func (g *gemmCtx) runPart(part int) {
	cl := &g.call
	if cl.b.half != nil {
		hs := &halfKernels[cl.b.hk]
		runPanels(g, part, &hs.rows, hs.rowBlocks4, cl.b.half)
		return
	}
	bp := cl.b.packed
	if bp == nil {
		panels := (cl.n + gemmNR - 1) / gemmNR
		bp = g.b
		packB(bp, cl.b.data, cl.b.ld, cl.b.trans, cl.k, cl.n, part*panels/cl.parts, (part+1)*panels/cl.parts)
	}
	runPanels(g, part, &microKernels, rowBlocks4, bp)
}

// runPanels is runPart on the packed B bp with the kernels ks, and rb4
// as rowBlocks4.
func runPanels[E panelElem](g *gemmCtx, part int, ks *[gemmMR]kernelRowOf[E], rb4 func(kc int, a *float32, b *E, bstride int, dst *float32), bp []E) {
	cl := &g.call
	w := &g.workers[part]
	m, n, k := cl.m, cl.n, cl.k
	panels := (n + gemmNR - 1) / gemmNR
	j0, j1 := part*panels/cl.parts, (part+1)*panels/cl.parts
	np := panels * gemmNR
	add := cl.beta != 0
	// A read in place by the six-row kernel, when it has one: A not
	// packed already, not transposed, alpha 1.
	direct := cl.a.packed == nil && cl.a.half == nil && !cl.a.trans && cl.alpha == 1 && ks[gemmMR-1].direct != nil
	if direct {
		// The kernel reads kc floats of six rows from each tile's start.
		if r, c := m, k; len(cl.a.data) < (r-1)*cl.a.ld+c {
			panic(fmt.Sprintf("sgemm: A has %d elements, want %d×%d at stride %d", len(cl.a.data), r, c, cl.a.ld))
		}
	}
	if cl.beta != 0 && cl.beta != 1 {
		c0, c1 := j0*gemmNR, min(j1*gemmNR, n)
		for i := range m {
			scaleRow(cl.c[i*cl.ldc+c0:i*cl.ldc+c1], cl.beta)
		}
	}
	// The tall kernels apply a bias row and Relu themselves.
	epf := 0
	if e := cl.ep; direct && ks[gemmMR-1].tall.rows > 0 && e != nil && e.rowBias == nil &&
		(e.act.act == actNone || e.act.act == actRelu) {
		if e.bias != nil {
			epf |= tallBias
		}
		if e.act.act == actRelu {
			epf |= tallRelu
		}
	}
	if g.useRowBlocks(j0, j1, ks[0].q) {
		rowBlocks(g, ks, rb4, w, bp, j0, j1)
		return
	}
	// Blocks of at most gemmMC rows; read in place, of nearly equal
	// heights, so that the last is not a few rows that the tall tiles
	// cannot cover.
	blocks := (m + gemmMC - 1) / gemmMC
	for p0 := 0; p0 < k; p0 += gemmKC {
		kcb := min(gemmKC, k-p0)
		bBlk := bp[p0*np : p0*np+kcb*np]
		for bi := range blocks {
			i0, i1 := bi*gemmMC, min((bi+1)*gemmMC, m)
			if direct {
				i0, i1 = bi*m/blocks, (bi+1)*m/blocks
			}
			var ap, ad []float32
			switch {
			case cl.a.half != nil:
				ap = w.a[:(i1-i0)*kcb]
				cl.a.hk.widenAll(ap, cl.a.half[p0*m+i0*kcb:p0*m+i1*kcb])
			case cl.a.packed != nil:
				ap = cl.a.packed[p0*m+i0*kcb : p0*m+i1*kcb]
			case direct:
				// Whole tiles read A in place; only the rows left over
				// are packed, where block expects them.
				ad = cl.a.data[i0*cl.a.ld+p0:]
				ap = w.a[:(i1-i0)*kcb]
				if rd := directStart(ks, i0, i1, cl.k*cl.n >= gemmFewFloats); rd < i1 {
					packA(ap[(rd-i0)*kcb:], cl.a.data, cl.a.ld, false, 1, rd, i1, p0, p0+kcb)
				}
			default:
				ap = w.a[:(i1-i0)*kcb]
				packA(ap, cl.a.data, cl.a.ld, cl.a.trans, cl.alpha, i0, i1, p0, p0+kcb)
			}
			last := p0+kcb >= k
			ef := 0
			if last {
				ef = epf
			}
			block(g, ks, w, ap, ad, bBlk, kcb, i0, i1, j0, j1, add || p0 > 0, ef)
			if cl.ep == nil || !last {
				continue
			}
			c1 := min(j1*gemmNR, n)
			if ef == 0 {
				cl.ep.applyRows(cl.c, cl.ldc, i0, i1, j0*gemmNR, c1)
				continue
			}
			// The tall tiles applied it to their full panels.
			start := directStart(ks, i0, i1, cl.k*cl.n >= gemmFewFloats)
			if jf := min(j1, n/gemmNR) * gemmNR; jf < c1 {
				cl.ep.applyRows(cl.c, cl.ldc, i0, start, jf, c1)
			}
			cl.ep.applyRows(cl.c, cl.ldc, start, i1, j0*gemmNR, c1)
		}
	}
}

// directStart returns the first of rows [i0, i1) that the kernels
// reading A in place leave to the packed ones: the tall tiles' plan
// (tallKernels.plan; few for a B past L2), or whole tiles of gemmMR
// rows.
func directStart[E panelElem](ks *[gemmMR]kernelRowOf[E], i0, i1 int, few bool) int {
	if t := &ks[gemmMR-1].tall; t.rows > 0 {
		return i0 + t.plan(i1-i0, few).covered
	}
	return i0 + (i1-i0)/gemmMR*gemmMR
}

// block multiplies the packed rows [i0, i1) of A by the packed panels
// [j0, j1) of B over one block of kcb steps, into C. When ad is set, the
// rows before directStart read A from ad (row i0 at ad[0], rows cl.a.ld
// apart) with the direct or tall kernels and ap holds only the rows left
// over, at their place. ks are the kernels for B panels of
// E. The tall tiles apply the epilogue ef (see tallKernelOf) with the
// call's bias to their full panels.
func block[E panelElem](g *gemmCtx, ks *[gemmMR]kernelRowOf[E], w *gemmWorker, ap, ad []float32, bBlk []E, kcb, i0, i1, j0, j1 int, add bool, ef int) {
	cl := &g.call
	c, ldc, n := cl.c, cl.ldc, cl.n
	addi := 0
	if add {
		addi = 1
	}
	ps := kcb * gemmNR
	jFull := min(j1, n/gemmNR)
	k6 := ks[gemmMR-1].one
	kd, lda := ks[gemmMR-1].direct, cl.a.ld
	tall := &ks[gemmMR-1].tall
	// Rows [i0, start) read A in place, in the tall tiles of plan tp or
	// in tiles of gemmMR rows; the rest is packed.
	start := i0
	var tp tallPlan
	if ad != nil {
		few := cl.k*cl.n >= gemmFewFloats
		start = directStart(ks, i0, i1, few)
		tp = tall.plan(i1-i0, few)
	}
	stream := cl.k*cl.n >= gemmStreamFloats
	// A B past L2 is likely cold (a model's weights, each read once a
	// run): the first tile of each panel, which brings it in, prefetches.
	cold := cl.k*cl.n >= gemmFewFloats
	if ad != nil && tall.rows > 0 {
		for jp := j0; jp < jFull; {
			q := 1
			if jp+tall.q <= jFull {
				q = tall.q
			}
			bpan := &bBlk[jp*ps]
			var bias *float32
			if ef&tallBias != 0 {
				bias = &cl.ep.bias[jp*gemmNR]
			}
			for ir := i0; ir < start; {
				h := tp.height(ir - i0)
				kt := tall.set(h).pick(q > 1, stream || (cold && ir == i0))
				kt(kcb, &ad[(ir-i0)*lda], bpan, ps, &c[ir*ldc+jp*gemmNR], ldc, addi, lda, bias, ef, g.prefetch)
				ir += h
			}
			jp += q
		}
	} else if ad != nil {
		for jp := j0; jp < jFull; jp++ {
			bpan := &bBlk[jp*ps]
			for ir := i0; ir < start; ir += gemmMR {
				kd(kcb, &ad[(ir-i0)*lda], bpan, ps, &c[ir*ldc+jp*gemmNR], ldc, addi, lda)
			}
		}
	}
	rows6 := start + (i1-start)/gemmMR*gemmMR
	jp6 := j0
	if k6w, q6 := ks[gemmMR-1].wide, ks[gemmMR-1].q; q6 > 1 {
		for ; jp6+q6 <= jFull; jp6 += q6 {
			bpan := &bBlk[jp6*ps]
			for ir := start; ir < rows6; ir += gemmMR {
				k6w(kcb, &ap[(ir-i0)*kcb], bpan, ps, &c[ir*ldc+jp6*gemmNR], ldc, addi)
			}
		}
	}
	for jp := jp6; jp < jFull; jp++ {
		bpan := &bBlk[jp*ps]
		for ir := start; ir < rows6; ir += gemmMR {
			k6(kcb, &ap[(ir-i0)*kcb], bpan, ps, &c[ir*ldc+jp*gemmNR], ldc, addi)
		}
	}
	if r := i1 - rows6; r > 0 && j0 < jFull {
		kr := ks[r-1]
		apr := &ap[(rows6-i0)*kcb]
		jp := j0
		for ; jp+kr.q <= jFull; jp += kr.q {
			kr.wide(kcb, apr, &bBlk[jp*ps], ps, &c[rows6*ldc+jp*gemmNR], ldc, addi)
		}
		for ; jp < jFull; jp++ {
			kr.one(kcb, apr, &bBlk[jp*ps], ps, &c[rows6*ldc+jp*gemmNR], ldc, addi)
		}
	}
	if jFull < j1 {
		// The last panel is partial: compute it into tmp, then copy.
		jp := jFull
		cols := n - jp*gemmNR
		for ir := i0; ir < i1; {
			rr := min(gemmMR, i1-ir)
			switch {
			case ir < start && tall.rows > 0:
				rr = tp.height(ir - i0)
				tall.set(rr).one(kcb, &ad[(ir-i0)*lda], &bBlk[jp*ps], ps, &w.tmp[0], gemmNR, 0, lda, nil, 0, g.prefetch)
			case ir < start:
				kd(kcb, &ad[(ir-i0)*lda], &bBlk[jp*ps], ps, &w.tmp[0], gemmNR, 0, lda)
			default:
				ks[rr-1].one(kcb, &ap[(ir-i0)*kcb], &bBlk[jp*ps], ps, &w.tmp[0], gemmNR, 0)
			}
			for i := range rr {
				row := c[(ir+i)*ldc+jp*gemmNR : (ir+i)*ldc+jp*gemmNR+cols]
				t := w.tmp[i*gemmNR : i*gemmNR+cols]
				if add {
					for j := range row {
						row[j] += t[j]
					}
				} else {
					copy(row, t)
				}
			}
			ir += rr
		}
	}
}

// packA packs rows [i0, i1) and steps [p0, p1) of alpha*op(A) into dst:
// the micro-panel of rows [ir, ir+r), r = min(gemmMR, i1-ir), starts at
// dst[(ir-i0)*(p1-p0)] and holds step p's r values at offset (p-p0)*r.
func packA(dst, a []float32, lda int, trans bool, alpha float32, i0, i1, p0, p1 int) {
	kc := p1 - p0
	for ir := i0; ir < i1; ir += gemmMR {
		r := min(gemmMR, i1-ir)
		d := dst[(ir-i0)*kc : (ir-i0)*kc+r*kc]
		if r == gemmMR && !trans && alpha == 1 {
			packA6(d, a[ir*lda+p0:], lda, kc)
			continue
		}
		for i := range r {
			if trans {
				for p := p0; p < p1; p++ {
					d[(p-p0)*r+i] = alpha * a[p*lda+ir+i]
				}
				continue
			}
			src := a[(ir+i)*lda+p0 : (ir+i)*lda+p1]
			if alpha == 1 {
				for p, v := range src {
					d[p*r+i] = v
				}
			} else {
				for p, v := range src {
					d[p*r+i] = alpha * v
				}
			}
		}
	}
}

// packA6 packs kc steps of six rows of A, lda apart from a, into d: step
// p's six values at d[6p:6p+6].
func packA6(d, a []float32, lda, kc int) {
	r0 := a[:kc]
	r1 := a[lda : lda+kc]
	r2 := a[2*lda : 2*lda+kc]
	r3 := a[3*lda : 3*lda+kc]
	r4 := a[4*lda : 4*lda+kc]
	r5 := a[5*lda : 5*lda+kc]
	d = d[:6*kc]
	for p := range kc {
		q := (*[6]float32)(d[6*p : 6*p+6])
		q[0], q[1], q[2], q[3], q[4], q[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
	}
}

// prepackA packs all of alpha*op(A), m×k, into a new slice laid out for
// gemmA.packed: the block of steps [p0, p0+gemmKC) starts at p0*m and is
// laid out as packA's rows [0, m).
func prepackA(a []float32, lda int, trans bool, alpha float32, m, k int) []float32 {
	dst := make([]float32, packedASize(m, k))
	for p0 := 0; p0 < k; p0 += gemmKC {
		p1 := min(p0+gemmKC, k)
		packA(dst[p0*m:p0*m+(p1-p0)*m], a, lda, trans, alpha, 0, m, p0, p1)
	}
	return dst
}

// packB packs panels [j0, j1) of op(B), k×n, into dst, which holds the
// whole packed matrix: the block of steps [p0, p0+kcb) starts at
// p0*np (np is n rounded up to gemmNR), its panel jp at jp*kcb*gemmNR
// within, holding step p's 16 columns at (p-p0)*gemmNR. Columns past n
// are zero.
func packB(dst, b []float32, ldb int, trans bool, k, n, j0, j1 int) {
	np := roundUp(n, gemmNR)
	for p0 := 0; p0 < k; p0 += gemmKC {
		kcb := min(gemmKC, k-p0)
		for jp := j0; jp < j1; jp++ {
			d := dst[p0*np+jp*kcb*gemmNR : p0*np+(jp+1)*kcb*gemmNR]
			c0 := jp * gemmNR
			cols := min(gemmNR, n-c0)
			if !trans && cols == gemmNR {
				copyRows16(d, b[p0*ldb+c0:], ldb, kcb)
				continue
			}
			if trans && cols == gemmNR {
				// Sixteen rows of Bᵀ, kcb long, are the panel's columns.
				transposeLanes(d, b[c0*ldb+p0:], gemmNR, ldb, kcb, gemmNR)
				continue
			}
			for p := range kcb {
				row := d[p*gemmNR : (p+1)*gemmNR]
				if trans {
					for j := range cols {
						row[j] = b[(c0+j)*ldb+p0+p]
					}
				} else {
					copy(row[:cols], b[(p0+p)*ldb+c0:(p0+p)*ldb+c0+cols])
				}
				clear(row[cols:])
			}
		}
	}
}

// copyRows16Go copies rows rows of 16 floats, ld apart in src, to dst
// one after another.
func copyRows16Go(dst, src []float32, ld, rows int) {
	for r := range rows {
		copy(dst[16*r:16*r+16], src[r*ld:r*ld+16])
	}
}

// prepackB packs all of op(B), k×n, into a new slice for gemmB.packed.
func prepackB(b []float32, ldb int, trans bool, k, n int) []float32 {
	dst := make([]float32, packedBSize(k, n))
	packB(dst, b, ldb, trans, k, n, 0, (n+gemmNR-1)/gemmNR)
	return dst
}

// gemmNaive computes C = alpha*op(A)*op(B) + beta*C with a plain loop, for
// float64 and the integer element types. With beta == 0, C is overwritten.
func gemmNaive[E float64 | int32 | int64 | uint32 | uint64](transA, transB bool, m, n, k int, alpha E, a []E, lda int, b []E, ldb int, beta E, c []E, ldc int) {
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
