package cpu

import "unsafe"

// The AVX-512 tall tiles: kernels reading A in place (see
// kernelRowOf.direct) for tiles of more than gemmMR rows, which may also
// apply the fused epilogue in their store.

// tallKernels are direct kernels for tiles of rows rows (at most
// gemmTallMax), and, when minRows is set, for tiles of minRows to rows-1
// rows (short), so that a block of rows splits into tiles of nearly
// equal heights (see tallPlan) rather than leaving up to rows-1 rows to
// the packed kernels, a whole pass over the panels each. Each element
// is summed as by microKernelOf, so the bits do not depend on which
// kernel computes a row.
type tallKernels[E panelElem] struct {
	rows, q int
	tallSet[E]
	short   [gemmTallMax]tallSet[E]
	minRows int
	// fewRows, when set, is minRows for products whose B is past L2
	// (gemmFewFloats): tiles down to fewRows rows, which prefetch
	// their panels (a token's product against a layer's weights), keep
	// up with L3 and memory better than the packed one-row kernels.
	fewRows int
}

// gemmFewFloats is the size of B, in floats, from which a block's rows
// may go to tall tiles of fewer than minRows rows (tallKernels.fewRows):
// 1 MiB, past the L2 caches of the cores this runs on.
const gemmFewFloats = 1 << 18

// tallSet is one tile height's kernels: wide covers q panels, one a
// single panel; wideStream and oneStream, when set, are their forms that
// prefetch the panels ahead, for products whose packed B is too large
// to stay in cache (at least gemmStreamFloats).
type tallSet[E panelElem] struct {
	wide, one             tallKernelOf[E]
	wideStream, oneStream tallKernelOf[E]
}

// set returns the kernels for tiles of r rows: rows, or minRows to
// rows-1.
func (t *tallKernels[E]) set(r int) *tallSet[E] {
	if r == t.rows {
		return &t.tallSet
	}
	return &t.short[r]
}

// pick returns the kernel for q > 1 panels (wide) or one, prefetching
// when stream is set and the set has such forms.
func (s *tallSet[E]) pick(wide, stream bool) tallKernelOf[E] {
	switch {
	case wide && stream && s.wideStream != nil:
		return s.wideStream
	case wide:
		return s.wide
	case stream && s.oneStream != nil:
		return s.oneStream
	}
	return s.one
}

// tallPlan is how a block of rows is covered by tall tiles: its first
// covered rows, in tiles whose first extra have base+1 rows and the
// rest base; the rows after them go to the packed kernels.
type tallPlan struct {
	covered, base, extra int
}

// plan covers n rows: with shorter tiles, in the fewest tiles of at most
// rows rows, of heights differing by one at most, when that keeps every
// tile at minRows (with few, fewRows) or more (49 rows: seven of 7);
// otherwise in tiles of rows rows, the rest left over.
func (t *tallKernels[E]) plan(n int, few bool) tallPlan {
	if t.rows == 0 {
		return tallPlan{}
	}
	least := t.minRows
	if few && t.fewRows > 0 {
		least = t.fewRows
	}
	if least > 0 {
		tiles := (n + t.rows - 1) / t.rows
		if tiles > 0 && n >= tiles*least {
			return tallPlan{covered: n, base: n / tiles, extra: n % tiles}
		}
	}
	return tallPlan{covered: n / t.rows * t.rows, base: t.rows}
}

// height returns the rows of the tile that starts o rows into the
// block, o < covered.
func (p tallPlan) height(o int) int {
	if o < p.extra*(p.base+1) {
		return p.base + 1
	}
	return p.base
}

// gemmStreamFloats is the size of B, in floats, from which the tall
// tiles prefetch its panels: 4 MiB, past the L2 caches of the cores
// this runs on, where a product streams its weights from L3 or memory.
const gemmStreamFloats = 1 << 20

// tallKernelOf is directKernelOf that also applies a fused epilogue to
// the tile it stores, as gemmEpilogue.applyRows would after it: with
// bit tallBias of ep set, bias[j] (bias points at the tile's first
// column) is added to column j; then with bit tallRelu, Relu. The
// prefetching forms (tallSet.wideStream) prefetch B's panels pf bytes
// ahead of their loads; the others ignore pf.
type tallKernelOf[E panelElem] func(kc int, a *float32, b *E, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int, pf int)

// The bits of tallKernelOf's ep.
const (
	tallBias = 1 << iota
	tallRelu
)

// gemmTallMax bounds tallKernels.rows.
const gemmTallMax = 16

// goDirect is the pure-Go twin of the kernels reading A in place: an
// r-row by 16·q-column tile, row i of A at a[i*lda:], summed as goKernel
// sums.
func goDirect(r, q, kc int, a, b *float32, pstride int, c *float32, ldc, add, lda int) {
	var as []float32
	if kc > 0 {
		as = unsafe.Slice(a, (r-1)*lda+kc)
	}
	goTile(r, q, kc, as, lda, 1, b, pstride, c, ldc, add)
}

// goTallKernels returns the pure-Go kernels with the six-row kernel
// reading A in place and tall tiles of rows rows and q panels, all by
// goDirect: the twins of the assembly ones, for tests.
func goTallKernels(rows, q int) [gemmMR]kernelRow {
	ks := goKernels()
	ks[gemmMR-1].direct = func(kc int, a, b *float32, ps int, c *float32, ldc, add, lda int) {
		goDirect(gemmMR, 1, kc, a, b, ps, c, ldc, add, lda)
	}
	ks[gemmMR-1].tall = tallKernels[float32]{rows: rows, q: q, tallSet: goTallSet(rows, q)}
	return ks
}

// goShortTallKernels is goTallKernels with shorter tiles of fewRows to
// rows-1 rows (see tallKernels.short).
func goShortTallKernels(rows, q, minRows, fewRows int) [gemmMR]kernelRow {
	ks := goTallKernels(rows, q)
	t := &ks[gemmMR-1].tall
	t.minRows, t.fewRows = minRows, fewRows
	for r := fewRows; r < rows; r++ {
		t.short[r] = goTallSet(r, q)
	}
	return ks
}

// goTallSet returns goDirect's kernels for tiles of rows rows, q panels
// or one.
func goTallSet(rows, q int) tallSet[float32] {
	return tallSet[float32]{
		wide: func(kc int, a, b *float32, ps int, c *float32, ldc, add, lda int, bias *float32, ep int, pf int) {
			goDirect(rows, q, kc, a, b, ps, c, ldc, add, lda)
			goTallEpilogue(rows, q, c, ldc, bias, ep)
		},
		one: func(kc int, a, b *float32, ps int, c *float32, ldc, add, lda int, bias *float32, ep int, pf int) {
			goDirect(rows, 1, kc, a, b, ps, c, ldc, add, lda)
			goTallEpilogue(rows, 1, c, ldc, bias, ep)
		},
	}
}

// goTallEpilogue applies tallKernelOf's epilogue ep to an r-row by
// 16·q-column tile of C.
func goTallEpilogue(r, q int, c *float32, ldc int, bias *float32, ep int) {
	if ep == 0 {
		return
	}
	var bs []float32
	if ep&tallBias != 0 {
		bs = unsafe.Slice(bias, q*gemmNR)
	}
	for i := range r {
		row := unsafe.Slice((*float32)(unsafe.Add(unsafe.Pointer(c), 4*i*ldc)), q*gemmNR)
		for j, v := range row {
			if bs != nil {
				v += bs[j]
			}
			if ep&tallRelu != 0 && !(v > 0) {
				v = 0
			}
			row[j] = v
		}
	}
}

// goHalfTall returns the pure-Go twins of the tall kernels for panels in
// format k, rows rows by q panels: each row of A in place is a one-row
// micro-panel for goHalfKernel.
func goHalfTall(k halfKind, rows, q int) tallKernels[uint16] {
	f := func(q int) tallKernelOf[uint16] {
		return func(kc int, a *float32, b *uint16, ps int, c *float32, ldc, add, lda int, bias *float32, ep int, pf int) {
			for i := range rows {
				goHalfKernel(k, 1, q, kc, (*float32)(unsafe.Add(unsafe.Pointer(a), 4*i*lda)), b, ps,
					(*float32)(unsafe.Add(unsafe.Pointer(c), 4*i*ldc)), ldc, add)
			}
			goTallEpilogue(rows, q, c, ldc, bias, ep)
		}
	}
	return tallKernels[uint16]{rows: rows, q: q, tallSet: tallSet[uint16]{wide: f(q), one: f(1)}}
}
