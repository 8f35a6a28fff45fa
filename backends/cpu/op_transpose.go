package cpu

import "github.com/lintel-ml/lintel/model"

// transposeKernel is Transpose: output dim k is input dim perm[k] (perm
// defaults to the reversed dims). The descriptor's rule
// (model.TransposeAttrs) sets the output shape and checks perm.
type transposeKernel struct {
	n    *model.Node
	perm []int64 // nil: reversed
	p    stridedCopy
	ist  []int
	seen []int
	// pool splits tile rows, or the plan's rows through pc; par and the
	// call fields hold the current call's split.
	pool           *workerPool
	par            parFor
	pc             parCopy
	dst, src       []byte
	rows, cols     int
	tilesI, tilesJ int
	esz            int
}

// permOf returns the permutation for rank r in k.seen's storage, checking
// it.
func (k *transposeKernel) permOf(r int) ([]int, error) {
	p := growInts(&k.seen, 2*r)
	perm, seen := p[:r], p[r:]
	if k.perm == nil {
		for i := range perm {
			perm[i] = r - 1 - i
		}
		return perm, nil
	}
	if len(k.perm) != r {
		return nil, shapeErr(k.n, "perm %v does not fit rank %d", k.perm, r)
	}
	for i := range seen {
		seen[i] = 0
	}
	for i, v := range k.perm {
		if v < 0 || v >= int64(r) || seen[v] != 0 {
			return nil, shapeErr(k.n, "perm %v is not a permutation", k.perm)
		}
		seen[v] = 1
		perm[i] = int(v)
	}
	return perm, nil
}

func (k *transposeKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	perm, err := k.permOf(r)
	if err != nil {
		return err
	}
	k.ist = growInts(&k.ist, r)
	rowStrides(k.ist, x.shape)
	dims, st := k.p.reset(r)
	for i, p := range perm {
		dims[i] = x.shape[p]
		st[i] = k.ist[p]
	}
	esz := x.dt.Size()
	batch, rows, cols, ok := transpose2D(&k.p)
	if !ok {
		k.pc.copy(k.pool, &k.p, y.data, x.data, esz, 0)
		return nil
	}
	if batch == 0 {
		return nil
	}
	k.tilesI = (rows + transposeTile - 1) / transposeTile
	k.tilesJ = (cols + transposeTile - 1) / transposeTile
	k.rows, k.cols, k.esz, k.dst, k.src = rows, cols, esz, y.data, x.data
	// A tile of a transposition costs about twice a simple loop.
	k.par.run(k.pool, k, batch*k.tilesI*k.tilesJ, 2*transposeTile*transposeTile)
	k.dst, k.src = nil, nil
	return nil
}

// transposeTile is the side of the square tiles transpositions copy.
const transposeTile = 32

// runRange transposes tiles [lo, hi) of the current call, numbered
// row major within each matrix, matrix by matrix.
func (k *transposeKernel) runRange(_, lo, hi int) {
	switch k.esz {
	case 1:
		blockT(wordsOf[uint8](k.dst), wordsOf[uint8](k.src), k.rows, k.cols, k.tilesI, k.tilesJ, lo, hi)
	case 2:
		blockT(wordsOf[uint16](k.dst), wordsOf[uint16](k.src), k.rows, k.cols, k.tilesI, k.tilesJ, lo, hi)
	case 4:
		blockT(wordsOf[uint32](k.dst), wordsOf[uint32](k.src), k.rows, k.cols, k.tilesI, k.tilesJ, lo, hi)
	case 8:
		blockT(wordsOf[uint64](k.dst), wordsOf[uint64](k.src), k.rows, k.cols, k.tilesI, k.tilesJ, lo, hi)
	}
}

// transpose2D coalesces the plan and reports whether it swaps the last
// two dims of a batch of matrices (batch 0 when the box is empty), which
// a cache-blocked loop copies faster than the plan. dst is then [batch,
// rows, cols] and src [batch, cols, rows].
func transpose2D(p *stridedCopy) (batch, rows, cols int, ok bool) {
	r := p.coalesce()
	if r < 0 {
		return 0, 0, 0, true
	}
	p.dims, p.st = p.dims[:r], p.st[:r]
	if r < 2 {
		return 0, 0, 0, false
	}
	rows, cols = p.dims[r-2], p.dims[r-1]
	// src element (i, j) is at i*st[r-2] + j*st[r-1].
	if !(p.st[r-2] == 1 && p.st[r-1] == rows) {
		return 0, 0, 0, false
	}
	batch = 1
	for k := 0; k < r-2; k++ {
		if p.st[k] != rows*cols {
			return 0, 0, 0, false
		}
		batch *= p.dims[k]
	}
	if r > 3 {
		// Several batch dims with a chained stride would have coalesced.
		return 0, 0, 0, false
	}
	return batch, rows, cols, true
}

// blockT writes dst[b][i][j] = src[b][j][i] for matrices of rows×cols
// destination, for tiles [lo, hi) of tilesI×tilesJ per matrix.
func blockT[W word](dst, src []W, rows, cols, tilesI, tilesJ, lo, hi int) {
	const tile = transposeTile
	n := rows * cols
	per := tilesI * tilesJ
	for u := lo; u < hi; u++ {
		b, t := u/per, u%per
		i0, j0 := (t/tilesJ)*tile, (t%tilesJ)*tile
		d := dst[b*n : b*n+n]
		s := src[b*n : b*n+n]
		i1, j1 := min(i0+tile, rows), min(j0+tile, cols)
		for i := i0; i < i1; i++ {
			row := d[i*cols : i*cols+cols]
			for j := j0; j < j1; j++ {
				row[j] = s[j*rows+i]
			}
		}
	}
}

func init() {
	register("Transpose", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		perm := c.rule.(*model.TransposeAttrs).Perm
		if s := c.in[0].Shape; perm != nil && c.in[0].RankKnown && len(s) != len(perm) {
			return nil, c.invalid("perm %v does not fit rank %d", perm, len(s))
		}
		return &transposeKernel{n: c.n, perm: perm, pool: c.pool()}, nil
	})
}
