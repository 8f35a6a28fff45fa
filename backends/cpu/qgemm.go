package cpu

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The int8 GEMM of MatMulInteger, QLinearMatMul, ConvInteger and
// QLinearConv (ADR 0029): C = (A - za)·(B - zb) in int32 for 8-bit A
// (m×k) and B (k×n), exactly as the widened products of the reference
// kernels, wrapping on overflow as they do.
//
// The micro-kernel multiplies signed A by unsigned B (VPDPBUSD's operand
// order, with A the broadcast side). Every type pair reaches it by a
// shift of 128 applied while packing: A of uint8 is packed as a-128
// (xor 0x80, an int8), B of int8 as b+128 (xor 0x80, a uint8), and the
// zero points move with them: ZA = za - 128 for uint8 A, ZB = zb + 128
// for int8 B. Then
//
//	Σ (a-za)(b-zb) = Σ A·B - ZA·Σ_k B - ZB·Σ_k A + k·ZA·ZB
//
// where A and B are the packed values. The column sums of B are computed
// when B is packed (once at load for constant weights), the row sums of A
// when A is packed; the correction is applied tile by tile after the
// kernel. All of it is int32 arithmetic modulo 2³², so it equals the
// reference's wrapped sums bit for bit.

// qMR and qNR are the rows and columns of the micro-kernel's tile.
const (
	qMR = 8
	qNR = 32
)

// qLayout is how the operands are packed for a micro-kernel: B in panels
// of qNR columns, each step of g values of k holding each column's g
// values together (panel byte (q*qNR+j)*g+t is B[q*g+t][j]); A row by
// row, k padded to a multiple of g, as int8, or as little-endian int16
// when wide.
type qLayout struct {
	g    int
	wide bool
}

// kPad is k rounded up to the layout's group.
func (l qLayout) kPad(k int) int { return roundUp(k, l.g) }

// aStride is the bytes of one packed A row.
func (l qLayout) aStride(k int) int {
	if l.wide {
		return 2 * l.kPad(k)
	}
	return l.kPad(k)
}

// panelSize is the bytes of one packed B panel.
func (l qLayout) panelSize(k int) int { return l.kPad(k) * qNR }

// qCorr is the zero point correction a micro-kernel adds to its tile:
// C[r][j] += za[r]·cb[j] + rs[r]·zb[j]. The int32 arrays lie in this
// order in memory, as the assembly reads them.
type qCorr struct {
	cb, zb [qNR]int32
	za, rs [qMR]int32
}

// apply adds the correction to the tile c (row stride ldc).
func (q *qCorr) apply(c []int32, ldc int) {
	for r := range qMR {
		row := c[r*ldc : r*ldc+qNR]
		za, rs := q.za[r], q.rs[r]
		for j := range row {
			row[j] += za*q.cb[j] + rs*q.zb[j]
		}
	}
}

// qKernel is a micro-kernel and the layout it reads. run computes the
// qMR×qNR tile C = A·B + the correction q (C's row stride ldc) from qMR
// packed A rows (lda bytes apart) and one packed B panel, over kg groups
// of k.
type qKernel struct {
	name string
	l    qLayout
	run  func(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr)
	// runF, when set, computes run's tile and stores it as float32
	// values scaled by s, as s.apply would after run.
	runF func(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr, s *qTileScale)
	// run1, when set, computes row 0 of run's tile only (c[:qNR]), for
	// a tile of one row.
	run1 func(a []byte, b []byte, kg int, c []int32, q *qCorr)
	// runTaps, when set, computes run's tile with B read in place
	// (qgemmCall.direct, 4-group layout): B's step s of tap t is the
	// qNR·4 bytes at b[taps[t]+s·bstep:], kgt steps a tap; a nil q adds
	// no correction.
	runTaps func(a []byte, lda int, b []byte, taps []int, kgt, bstep int, c []int32, ldc int, q *qCorr)
	// pack, when set, packs kg whole groups of k of a panel of qNR
	// columns (row stride ld), each byte xor mask, writing the packed
	// columns' sums into cs[:qNR]; packQBPanel is its twin.
	pack func(dst, src []byte, ld, kg int, mask byte, cs []int32)
}

// vnni reports a kernel of VPDPBUSD, AVX-512 VNNI's or AVX-VNNI's: four
// byte products a lane an instruction, where the float32 kernels do one.
func (kn *qKernel) vnni() bool { return kn.name == "avx512vnni" || kn.name == "avxvnni" }

// packPanel is packQBPanel, by the kernel's packer where it has one and
// the panel is whole.
func (kn *qKernel) packPanel(dst, src []byte, ld, k, n, j0 int, mask byte, colSum []int32) {
	l := kn.l
	if kn.pack == nil || n-j0 < qNR || k < l.g {
		packQBPanel(l, dst, src, ld, k, n, j0, mask, colSum)
		return
	}
	full := k / l.g
	kn.pack(dst, src[j0:], ld, full, mask, colSum)
	g := l.g
	tail := dst[full*qNR*g : l.panelSize(k)]
	clear(tail)
	cs := colSum[:qNR]
	for p := full * g; p < k; p++ {
		s := src[p*ld+j0 : p*ld+j0+qNR]
		t := p % g
		for j, v := range s {
			x := v ^ mask
			tail[j*g+t] = x
			cs[j] += int32(x)
		}
	}
}

// packTaps packs columns [j0, j0+qNR) of the call's tapped B (cl.taps)
// into the panel dst, tap by tap, and the packed columns' sums into
// colSum[:qNR], using cs[:qNR] as scratch.
func (kn *qKernel) packTaps(dst []byte, cl *qgemmCall, j0 int, colSum, cs []int32) {
	cs = cs[:qNR]
	clear(colSum[:qNR])
	step := cl.tapRows * qNR
	for t, off := range cl.taps {
		kn.packPanel(dst[t*step:(t+1)*step], cl.raw[off:], cl.ldb, cl.tapRows, cl.n, j0, cl.mask, cs)
		for j, v := range cs {
			colSum[j] += v
		}
	}
}

// qaAt returns packed A's value at row offset off, step p.
func qaAt(l qLayout, a []byte, off, p int) int32 {
	if l.wide {
		return int32(int16(binary.LittleEndian.Uint16(a[off+2*p:])))
	}
	return int32(int8(a[off+p]))
}

// qkernGo is the micro-kernel in Go, for any layout: the twin of the
// assembly kernels, and the kernel where they do not run.
func qkernGo(l qLayout, a []byte, lda int, b []byte, kg int, c []int32, ldc int, corr *qCorr) {
	var acc [qMR][qNR]int32
	g := l.g
	for q := range kg {
		bq := b[q*qNR*g : (q+1)*qNR*g]
		for r := range qMR {
			for t := range g {
				av := qaAt(l, a, r*lda, q*g+t)
				for j := range qNR {
					acc[r][j] += av * int32(bq[j*g+t])
				}
			}
		}
	}
	for r := range qMR {
		copy(c[r*ldc:r*ldc+qNR], acc[r][:])
	}
	corr.apply(c, ldc)
}

// qPackedA is a packed A: rows padded to a multiple of qMR, lda bytes
// apart, and each row's sum of packed values.
type qPackedA struct {
	data   []byte
	lda    int
	rowSum []int32
}

// packQA packs the m×k matrix src (row stride ld bytes; uint8 when u8,
// else int8) as A into dst, zero padded, writing each row's sum of packed
// values into rowSum. dst holds roundUp(m, qMR) rows of l.aStride(k).
func packQA(l qLayout, dst, src []byte, ld, m, k int, u8 bool, rowSum []int32) {
	lda := l.aStride(k)
	var mask byte
	if u8 {
		mask = 0x80
	}
	rows := roundUp(m, qMR)
	clear(dst[m*lda : rows*lda])
	for i := range m {
		s := src[i*ld : i*ld+k]
		d := dst[i*lda : (i+1)*lda]
		var sum int32
		if l.wide {
			p0 := 0
			if qpackRowWide != nil {
				p0 = k &^ 15
				sum = qpackRowWide(d, s, p0, mask)
			}
			for p, v := range s[p0:] {
				x := int8(v ^ mask)
				sum += int32(x)
				binary.LittleEndian.PutUint16(d[2*(p0+p):], uint16(int16(x)))
			}
			clear(d[2*k:])
		} else {
			p0 := 0
			if qpackRow != nil {
				p0 = k &^ 63
				sum = qpackRow(d, s, p0, mask)
			}
			for p, v := range s[p0:] {
				x := v ^ mask
				sum += int32(int8(x))
				d[p0+p] = x
			}
			clear(d[k:])
		}
		rowSum[i] = sum
	}
}

// packQBPanel packs columns [j0, j0+qNR) of the k×n matrix src (row
// stride ld bytes), each byte xor mask, into the panel dst
// (l.panelSize(k) bytes), zero beyond n and k, and each packed column's
// sum into colSum[:qNR].
func packQBPanel(l qLayout, dst, src []byte, ld, k, n, j0 int, mask byte, colSum []int32) {
	nc := min(qNR, n-j0)
	g := l.g
	clear(dst[:l.panelSize(k)])
	cs := colSum[:qNR]
	clear(cs)
	for p := range k {
		s := src[p*ld+j0 : p*ld+j0+nc]
		q, t := p/g, p%g
		d := dst[q*qNR*g+t:]
		for j, v := range s {
			x := v ^ mask
			d[j*g] = x
			cs[j] += int32(x)
		}
	}
}

// qPackedB is a B packed whole, panel after panel, with its column sums
// (qNR per panel).
type qPackedB struct {
	data   []byte
	colSum []int32
}

// packQB packs the whole k×n matrix src (row stride ld bytes; int8 when
// s8, else uint8).
func packQB(l qLayout, src []byte, ld, k, n int, s8 bool) qPackedB {
	panels := (n + qNR - 1) / qNR
	ps := l.panelSize(k)
	pb := qPackedB{data: make([]byte, panels*ps), colSum: make([]int32, panels*qNR)}
	for p := range panels {
		packQBPanel(l, pb.data[p*ps:(p+1)*ps], src, ld, k, n, p*qNR, qMaskB(s8), pb.colSum[p*qNR:])
	}
	return pb
}

// qMaskB is the xor that packs B: int8 B moves to uint8.
func qMaskB(s8 bool) byte {
	if s8 {
		return 0x80
	}
	return 0
}

// qShiftA and qShiftB are the zero point shifts of packed A and B.
func qShiftA(u8 bool) int32 {
	if u8 {
		return -128
	}
	return 0
}

func qShiftB(s8 bool) int32 {
	if s8 {
		return 128
	}
	return 0
}

// qgemmCall is one product, read by every part.
type qgemmCall struct {
	m, n, k int
	a       qPackedA
	// za holds ZA for row i at za[i%len(za)]; zb holds ZB for column j
	// at zb[0] (one) or zb[j].
	za, zb []int32
	// B: prepacked (b.data set), or a k×n row-major matrix (raw, ldb
	// bytes a row, xor mask) packed panel by panel.
	b    qPackedB
	raw  []byte
	ldb  int
	mask byte
	// taps, when set, places B's rows in len(taps) blocks of tapRows (a
	// multiple of the layout's group): row t·tapRows+r starts at
	// raw[taps[t]+r·ldb]. A stride-1 convolution reads its padded input
	// so, once per kernel tap (qconvWide).
	taps    []int
	tapRows int
	// direct, with taps, reads B in place instead (kernel runTaps): raw
	// holds B's column j, rows 4s..4s+3 of tap t, as the 4 bytes at
	// taps[t]+4j+s·ldb, already in packed form (xor applied), and
	// colSum, when set, their sums by column (nil: all za are zero).
	direct bool
	colSum []int32
	// rowOnly, with direct, leaves the whole correction to the caller:
	// every za is zero and zb is one value, so the sums lack only
	// −rowSum[i]·zb, a constant of each row.
	rowOnly bool
	c       []int32
	ldc     int
	// scale, when set, turns each tile's sums into float32 values in
	// C's own bytes as soon as they are stored, as qScaleOut would
	// after the call (not with direct).
	scale  *qFloatScale
	parts  int
	byRows bool
}

// qTileScale is a qFloatScale's values for the qNR columns of one panel,
// as the kernels that scale their tiles read them (qKernel.runF; the
// assembly reads mult at byte 0, bias at 128 and hasBias at 256).
type qTileScale struct {
	mult, bias [qNR]float32
	hasBias    int64
}

// set fills t with s's values for the panel of columns [j0, j0+qNR).
func (t *qTileScale) set(s *qFloatScale, j0 int) {
	if len(s.mult) == 1 {
		for j := range t.mult {
			t.mult[j] = s.mult[0]
		}
	} else {
		copy(t.mult[:], s.mult[j0:j0+qNR])
	}
	t.hasBias = 0
	if s.bias != nil {
		copy(t.bias[:], s.bias[j0:j0+qNR])
		t.hasBias = 1
	}
}

// apply scales rows rows of a panel's tile c (ldc elements a row) in
// place, as qScaleRowGo.
func (t *qTileScale) apply(c []int32, ldc, rows int) {
	var bias []float32
	if t.hasBias != 0 {
		bias = t.bias[:]
	}
	qScaleRowsGo(c, ldc, rows, qNR, t.mult[:], bias)
}

// qFloatScale is a call's float32 scaling of its sums: float32(sum)·mult[j]
// (+ bias[j]), mult one value or one a column, bias nil or one a column.
type qFloatScale struct {
	mult, bias []float32
}

// apply scales rows [i0, i0+nr) of columns [j0, j0+nc) of c, ldc
// elements a row.
func (s *qFloatScale) apply(c []int32, ldc, i0, nr, j0, nc int) {
	mult, bias := s.mult, s.bias
	if len(mult) > 1 {
		mult = mult[j0 : j0+nc]
	}
	if bias != nil {
		bias = bias[j0 : j0+nc]
	}
	qScaleRowsInPlace(c[i0*ldc+j0:], ldc, nr, nc, mult, bias)
}

// qgemmWorker is one part's scratch.
type qgemmWorker struct {
	panel []byte // a packed B panel
	cs    [qNR]int32
	tapCS [qNR]int32
	corr  qCorr
	tmp   [qMR * qNR]int32
	ts    qTileScale
	_     [cacheLine]byte
}

// qgemmCtx runs int8 GEMMs for one kernel, on the model's pool.
type qgemmCtx struct {
	pool    *workerPool
	kern    qKernel
	workers []qgemmWorker
	call    qgemmCall
	// rows holds each tile's row half of the correction for the call.
	rows []qRowCorr
}

// qRowCorr is a tile's row half of qCorr: za and rs, as qCorr lays
// them out.
type qRowCorr struct {
	za, rs [qMR]int32
}

// newQgemmCtx returns a context using pool (nil: one thread) and the
// kernel this CPU runs best.
func newQgemmCtx(pool *workerPool) *qgemmCtx {
	return &qgemmCtx{pool: pool, kern: qkernBest, workers: make([]qgemmWorker, pool.size())}
}

// qParMin is the fewest multiply-adds (m·n·k) per part worth a thread.
const qParMin = 1 << 18

// run computes cl (its parts fields are set here) and clears the call.
func (g *qgemmCtx) run(cl qgemmCall) {
	m, n, k := cl.m, cl.n, cl.k
	if m <= 0 || n <= 0 {
		return
	}
	if len(cl.c) < (m-1)*cl.ldc+n {
		panic(fmt.Sprintf("qgemm: C has %d elements, want %d", len(cl.c), (m-1)*cl.ldc+n))
	}
	l := g.kern.l
	if len(cl.a.data) < roundUp(m, qMR)*l.aStride(k) || cl.a.lda != l.aStride(k) || len(cl.a.rowSum) < m {
		panic(fmt.Sprintf("qgemm: packed A of %d bytes for %d×%d", len(cl.a.data), m, k))
	}
	panels, tiles := (n+qNR-1)/qNR, (m+qMR-1)/qMR
	if cl.b.data != nil && (len(cl.b.data) < panels*l.panelSize(k) || len(cl.b.colSum) < panels*qNR) {
		panic(fmt.Sprintf("qgemm: packed B of %d bytes for %d×%d", len(cl.b.data), k, n))
	}
	if cl.b.data == nil && len(cl.raw) < cl.rawEnd() && k > 0 {
		panic(fmt.Sprintf("qgemm: B has %d bytes, want %d×%d", len(cl.raw), k, n))
	}
	for i := range g.workers {
		w := &g.workers[i]
		if cl.b.data == nil && len(w.panel) < l.panelSize(k) {
			w.panel = make([]byte, l.panelSize(k))
		}
	}
	cl.parts = 1
	if g.pool != nil {
		work := max(1, m*n*k/qParMin)
		if panels >= g.pool.size() || panels >= tiles {
			cl.parts = min(g.pool.size(), panels, work)
		} else {
			cl.parts = min(g.pool.size(), tiles, work)
			cl.byRows = true
		}
	}
	if cl.direct && cl.scale != nil {
		panic("qgemm: a direct call takes no scale")
	}
	if cl.rowOnly && (!cl.direct || len(cl.zb) != 1 || !allZero(cl.za)) {
		panic("qgemm: a row-only correction needs zero za and one zb")
	}
	g.call = cl
	if cap(g.rows) < tiles {
		g.rows = make([]qRowCorr, tiles)
	}
	g.rows = g.rows[:tiles]
	for t := range g.rows {
		g.rows[t].set(&g.call, t*qMR, min(qMR, m-t*qMR))
	}
	if g.call.parts == 1 {
		g.runPart(0)
	} else {
		g.pool.run(g, g.call.parts)
	}
	g.call = qgemmCall{}
}

// rawEnd is the bytes of raw B the call reads.
func (cl *qgemmCall) rawEnd() int {
	if cl.direct {
		if cl.tapRows%4 != 0 || cl.tapRows*len(cl.taps) != cl.k {
			return math.MaxInt
		}
		end := 0
		for _, off := range cl.taps {
			end = max(end, off+(cl.tapRows/4-1)*cl.ldb+roundUp(cl.n, qNR)*4)
		}
		return end
	}
	if cl.taps == nil {
		return (cl.k-1)*cl.ldb + cl.n
	}
	if cl.tapRows*len(cl.taps) != cl.k {
		return math.MaxInt
	}
	end := 0
	for _, off := range cl.taps {
		end = max(end, off+(cl.tapRows-1)*cl.ldb+cl.n)
	}
	return end
}

// span returns part's share [lo, hi) of n units split parts ways.
func span(n, parts, part int) (lo, hi int) {
	return n * part / parts, n * (part + 1) / parts
}

func (g *qgemmCtx) runPart(part int) {
	cl := &g.call
	w := &g.workers[part]
	l := g.kern.l
	m, n, k := cl.m, cl.n, cl.k
	panels, tiles := (n+qNR-1)/qNR, (m+qMR-1)/qMR
	p0, p1, t0, t1 := 0, panels, 0, tiles
	if cl.byRows {
		t0, t1 = span(tiles, cl.parts, part)
	} else {
		p0, p1 = span(panels, cl.parts, part)
	}
	ps, kg, lda := l.panelSize(k), l.kPad(k)/l.g, cl.a.lda
	if cl.direct {
		g.runDirect(w, p0, p1, t0, t1)
		return
	}
	for p := p0; p < p1; p++ {
		var bp []byte
		var cs []int32
		switch {
		case cl.b.data != nil:
			bp, cs = cl.b.data[p*ps:(p+1)*ps], cl.b.colSum[p*qNR:(p+1)*qNR]
		case cl.taps != nil:
			g.kern.packTaps(w.panel, cl, p*qNR, w.cs[:], w.tapCS[:])
			bp, cs = w.panel[:ps], w.cs[:]
		default:
			g.kern.packPanel(w.panel, cl.raw, cl.ldb, k, n, p*qNR, cl.mask, w.cs[:])
			bp, cs = w.panel[:ps], w.cs[:]
		}
		j0 := p * qNR
		nc := min(qNR, n-j0)
		q := &w.corr
		q.setColumns(cs[:nc], cl.zb, j0, k)
		// A scaled call scales whole tiles as the kernel stores them
		// where it can (ts), the others tile by tile after; with no such
		// kernel, the panel's rows at the end.
		var ts *qTileScale
		if cl.scale != nil && g.kern.runF != nil && nc == qNR {
			ts = &w.ts
			ts.set(cl.scale, j0)
		}
		for t := t0; t < t1; t++ {
			i0 := t * qMR
			nr := min(qMR, m-i0)
			q.za, q.rs = g.rows[t].za, g.rows[t].rs
			a := cl.a.data[i0*lda:]
			switch {
			case nr == 1 && g.kern.run1 != nil:
				if nc == qNR {
					g.kern.run1(a, bp, kg, cl.c[i0*cl.ldc+j0:], q)
				} else {
					g.kern.run1(a, bp, kg, w.tmp[:], q)
					copy(cl.c[i0*cl.ldc+j0:i0*cl.ldc+j0+nc], w.tmp[:nc])
				}
			case nr == qMR && nc == qNR:
				if ts != nil {
					g.kern.runF(a, lda, bp, kg, cl.c[i0*cl.ldc+j0:], cl.ldc, q, ts)
					continue
				}
				g.kern.run(a, lda, bp, kg, cl.c[i0*cl.ldc+j0:], cl.ldc, q)
			default:
				g.kern.run(a, lda, bp, kg, w.tmp[:], qNR, q)
				for r := range nr {
					copy(cl.c[(i0+r)*cl.ldc+j0:(i0+r)*cl.ldc+j0+nc], w.tmp[r*qNR:r*qNR+nc])
				}
			}
			if ts != nil {
				ts.apply(cl.c[i0*cl.ldc+j0:], cl.ldc, nr)
			}
		}
		if cl.scale != nil && ts == nil {
			i0 := t0 * qMR
			cl.scale.apply(cl.c, cl.ldc, i0, min(t1*qMR, m)-i0, j0, nc)
		}
	}
}

// runDirect runs panels [p0, p1) and tiles [t0, t1) of a direct call
// (cl.direct), reading B in place.
func (g *qgemmCtx) runDirect(w *qgemmWorker, p0, p1, t0, t1 int) {
	cl := &g.call
	m, n, lda := cl.m, cl.n, cl.a.lda
	kgt := cl.tapRows / 4
	for p := p0; p < p1; p++ {
		j0 := p * qNR
		nc := min(qNR, n-j0)
		cs := w.cs[:nc]
		if cl.colSum != nil {
			cs = cl.colSum[j0 : j0+nc]
		} else {
			clear(cs)
		}
		q := &w.corr
		q.setColumns(cs, cl.zb, j0, cl.k)
		if cl.rowOnly {
			q = nil
		}
		b := cl.raw[4*j0:]
		for t := t0; t < t1; t++ {
			i0 := t * qMR
			nr := min(qMR, m-i0)
			if q != nil {
				q.za, q.rs = g.rows[t].za, g.rows[t].rs
			}
			a := cl.a.data[i0*lda:]
			if nr == qMR && nc == qNR {
				g.kern.runTaps(a, lda, b, cl.taps, kgt, cl.ldb, cl.c[i0*cl.ldc+j0:], cl.ldc, q)
				continue
			}
			g.kern.runTaps(a, lda, b, cl.taps, kgt, cl.ldb, w.tmp[:], qNR, q)
			for r := range nr {
				copy(cl.c[(i0+r)*cl.ldc+j0:(i0+r)*cl.ldc+j0+nc], w.tmp[r*qNR:r*qNR+nc])
			}
		}
	}
}

// set sets the row half of the correction for the nr rows from i0,
// zero for the rest of the tile.
func (q *qRowCorr) set(cl *qgemmCall, i0, nr int) {
	clear(q.za[nr:])
	clear(q.rs[nr:])
	for r, s := range cl.a.rowSum[i0 : i0+nr] {
		q.rs[r] = -s
	}
	switch {
	case len(cl.za) == 1:
		for r := range nr {
			q.za[r] = -cl.za[0]
		}
		return
	case len(cl.za) >= i0+nr:
		for r, z := range cl.za[i0 : i0+nr] {
			q.za[r] = -z
		}
		return
	}
	for r := range nr {
		q.za[r] = -cl.za[(i0+r)%len(cl.za)]
	}
}

// setColumns sets the column half of the correction for the nc =
// len(cs) columns from j0 (column sums cs, ZB zb: one value or one a
// column), zero for the rest of the tile.
func (q *qCorr) setColumns(cs, zb []int32, j0, k int) {
	nc := len(cs)
	if len(zb) == 1 {
		z := zb[0]
		kz := int32(k) * z
		for j, c := range cs {
			q.cb[j] = c - kz
			q.zb[j] = z
		}
	} else {
		zc := zb[j0 : j0+nc]
		for j, c := range cs {
			z := zc[j]
			q.cb[j] = c - int32(k)*z
			q.zb[j] = z
		}
	}
	clear(q.cb[nc:])
	clear(q.zb[nc:])
}

// qkernTapsGo is runTaps in Go: the twin of the assembly, and the
// kernel where it does not run.
func qkernTapsGo(a []byte, lda int, b []byte, taps []int, kgt, bstep int, c []int32, ldc int, corr *qCorr) {
	var acc [qMR][qNR]int32
	for t, off := range taps {
		for s := range kgt {
			bq := b[off+s*bstep : off+s*bstep+4*qNR]
			p := 4 * (t*kgt + s)
			for r := range qMR {
				for u := range 4 {
					av := int32(int8(a[r*lda+p+u]))
					for j := range qNR {
						acc[r][j] += av * int32(bq[4*j+u])
					}
				}
			}
		}
	}
	for r := range qMR {
		copy(c[r*ldc:r*ldc+qNR], acc[r][:])
	}
	if corr != nil {
		corr.apply(c, ldc)
	}
}

// qrunGo4 is qkernGo on the 4-group layout.
func qrunGo4(a []byte, lda int, b []byte, kg int, c []int32, ldc int, q *qCorr) {
	qkernGo(qLayout{g: 4}, a, lda, b, kg, c, ldc, q)
}
