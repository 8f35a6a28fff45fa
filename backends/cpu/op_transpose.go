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
	if transpose2D(&k.p, y.data, x.data, esz) {
		return nil
	}
	k.p.copy(y.data, x.data, esz, 0)
	return nil
}

// transpose2D handles a plan that, once coalesced, swaps the last two
// dims of a batch of matrices, with a cache-blocked loop. It reports
// whether it did the copy.
func transpose2D(p *stridedCopy, dst, src []byte, esz int) bool {
	r := p.coalesce()
	if r < 0 {
		return true
	}
	p.dims, p.st = p.dims[:r], p.st[:r]
	if r < 2 {
		return false
	}
	rows, cols := p.dims[r-2], p.dims[r-1]
	// dst is [.., rows, cols]; src element (i, j) is at i*st[r-2] + j*st[r-1].
	if !(p.st[r-2] == 1 && p.st[r-1] == rows) {
		return false
	}
	batch := 1
	for k := 0; k < r-2; k++ {
		if p.st[k] != rows*cols {
			return false
		}
		batch *= p.dims[k]
	}
	if r > 3 {
		// Several batch dims with a chained stride would have coalesced.
		return false
	}
	switch esz {
	case 1:
		blockT(wordsOf[uint8](dst), wordsOf[uint8](src), batch, rows, cols)
	case 2:
		blockT(wordsOf[uint16](dst), wordsOf[uint16](src), batch, rows, cols)
	case 4:
		blockT(wordsOf[uint32](dst), wordsOf[uint32](src), batch, rows, cols)
	case 8:
		blockT(wordsOf[uint64](dst), wordsOf[uint64](src), batch, rows, cols)
	}
	return true
}

// blockT writes dst[b][i][j] = src[b][j][i] for batch matrices of
// rows×cols destination, in tiles.
func blockT[W word](dst, src []W, batch, rows, cols int) {
	const tile = 32
	n := rows * cols
	for b := 0; b < batch; b++ {
		d := dst[b*n : b*n+n]
		s := src[b*n : b*n+n]
		for i0 := 0; i0 < rows; i0 += tile {
			i1 := min(i0+tile, rows)
			for j0 := 0; j0 < cols; j0 += tile {
				j1 := min(j0+tile, cols)
				for i := i0; i < i1; i++ {
					row := d[i*cols : i*cols+cols]
					for j := j0; j < j1; j++ {
						row[j] = s[j*rows+i]
					}
				}
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
		return &transposeKernel{n: c.n, perm: perm}, nil
	})
}
