package cpu

import "unsafe"

// rowBlocks4 computes four one-row, one-panel tiles at once, one per
// block of kc steps: block t reads kc floats of A from a+t*kc and the
// panel at b+t*bstride, and stores its gemmNR sums, each from zero, at
// dst[16t:]. Each tile is exactly microKernels[0].one's with add 0, so
// the blocks come out with the same bits; the assembly version overlaps
// the four tiles' FMA chains. It is set once at init.
var rowBlocks4 = rowBlocks4Go

// rowBlocks4Go is rowBlocks4 as four calls of the one-row kernel.
func rowBlocks4Go(kc int, a, b *float32, bstride int, dst *float32) {
	for t := range 4 {
		microKernels[0].one(kc, (*float32)(unsafe.Add(unsafe.Pointer(a), 4*t*kc)),
			(*float32)(unsafe.Add(unsafe.Pointer(b), 4*t*bstride)), kc*gemmNR,
			(*float32)(unsafe.Add(unsafe.Pointer(dst), 4*t*gemmNR)), gemmNR, 0)
	}
}

// useRowBlocks reports whether runPart computes the current call by
// rowBlocks: one row of plain A (alpha 1), k spanning several blocks,
// and fewer panels than the one-row wide kernel covers (q), where each
// panel's two FMA chains would otherwise wait on their latency.
func (g *gemmCtx) useRowBlocks(j0, j1, q int) bool {
	cl := &g.call
	return cl.m == 1 && cl.a.packed == nil && cl.a.half == nil && !cl.a.trans && cl.alpha == 1 &&
		cl.k > gemmKC && j1-j0 < q
}

// rowBlocks computes panels [j0, j1) of a one-row call from the packed B
// bp: the sums of every block of gemmKC steps, four blocks at a time
// (rb4, rowBlocks4 for panels of E), then added to C block by block in
// increasing p, as runPart would.
func rowBlocks[E panelElem](g *gemmCtx, ks *[gemmMR]kernelRowOf[E], rb4 func(kc int, a *float32, b *E, bstride int, dst *float32), w *gemmWorker, bp []E, j0, j1 int) {
	cl := &g.call
	n, k := cl.n, cl.k
	a := cl.a.data[:k]
	np := roundUp(n, gemmNR)
	nb := (k + gemmKC - 1) / gemmKC
	if len(w.acc) < nb*gemmNR {
		w.acc = make([]float32, nb*gemmNR)
	}
	add := cl.beta != 0
	for jp := j0; jp < j1; jp++ {
		t := 0
		for ; (t+4)*gemmKC <= k; t += 4 {
			_ = bp[(t+3)*gemmKC*np+(jp+1)*gemmKC*gemmNR-1]
			rb4(gemmKC, &a[t*gemmKC], &bp[t*gemmKC*np+jp*gemmKC*gemmNR], gemmKC*np, &w.acc[t*gemmNR])
		}
		for ; t < nb; t++ {
			p0 := t * gemmKC
			kcb := min(gemmKC, k-p0)
			_ = bp[p0*np+(jp+1)*kcb*gemmNR-1]
			ks[0].one(kcb, &a[p0], &bp[p0*np+jp*kcb*gemmNR], kcb*gemmNR, &w.acc[t*gemmNR], gemmNR, 0)
		}
		row := cl.c[jp*gemmNR : min((jp+1)*gemmNR, n)]
		for t := range nb {
			acc := w.acc[t*gemmNR : t*gemmNR+len(row)]
			if t == 0 && !add {
				copy(row, acc)
				continue
			}
			for j := range row {
				row[j] += acc[j]
			}
		}
	}
	if cl.ep != nil {
		cl.ep.applyRows(cl.c, cl.ldc, 0, 1, j0*gemmNR, min(j1*gemmNR, n))
	}
}
