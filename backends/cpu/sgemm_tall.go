package cpu

import "unsafe"

// The AVX-512 tall tiles: kernels reading A in place (see
// kernelRowOf.direct) for tiles of more than gemmMR rows, which may also
// apply the fused epilogue in their store.

// tallKernels are direct kernels for tiles of rows rows (at most
// gemmTallMax): wide covers q panels, one a single panel. Each element is
// summed as by microKernelOf, so the bits do not depend on which kernel
// computes a row. wideStream and oneStream, when set, are their forms
// that prefetch the panels ahead, for products whose packed B is too
// large to stay in cache (at least gemmStreamFloats).
type tallKernels[E panelElem] struct {
	rows, q               int
	wide, one             tallKernelOf[E]
	wideStream, oneStream tallKernelOf[E]
}

// gemmStreamFloats is the size of B, in floats, from which the tall
// tiles prefetch its panels: 4 MiB, past the L2 caches of the cores
// this runs on, where a product streams its weights from L3 or memory.
const gemmStreamFloats = 1 << 20

// tallKernelOf is directKernelOf that also applies a fused epilogue to
// the tile it stores, as gemmEpilogue.applyRows would after it: with
// bit tallBias of ep set, bias[j] (bias points at the tile's first
// column) is added to column j; then with bit tallRelu, Relu.
type tallKernelOf[E panelElem] func(kc int, a *float32, b *E, pstride int, c *float32, ldc int, add int, lda int, bias *float32, ep int)

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
	ks[gemmMR-1].tall = tallKernels[float32]{
		rows: rows, q: q,
		wide: func(kc int, a, b *float32, ps int, c *float32, ldc, add, lda int, bias *float32, ep int) {
			goDirect(rows, q, kc, a, b, ps, c, ldc, add, lda)
			goTallEpilogue(rows, q, c, ldc, bias, ep)
		},
		one: func(kc int, a, b *float32, ps int, c *float32, ldc, add, lda int, bias *float32, ep int) {
			goDirect(rows, 1, kc, a, b, ps, c, ldc, add, lda)
			goTallEpilogue(rows, 1, c, ldc, bias, ep)
		},
	}
	return ks
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
		return func(kc int, a *float32, b *uint16, ps int, c *float32, ldc, add, lda int, bias *float32, ep int) {
			for i := range rows {
				goHalfKernel(k, 1, q, kc, (*float32)(unsafe.Add(unsafe.Pointer(a), 4*i*lda)), b, ps,
					(*float32)(unsafe.Add(unsafe.Pointer(c), 4*i*ldc)), ldc, add)
			}
			goTallEpilogue(rows, q, c, ldc, bias, ep)
		}
	}
	return tallKernels[uint16]{rows: rows, q: q, wide: f(q), one: f(1)}
}
