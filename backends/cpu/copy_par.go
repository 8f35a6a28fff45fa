package cpu

// parCopy runs a stridedCopy plan with its destination rows (runs of
// the innermost coalesced dim) split across a worker pool. Every row is
// copied exactly as the one-thread plan copies it, so the result is the
// same whatever the split.
type parCopy struct {
	par      parFor
	p        *stridedCopy
	dst, src []byte
	esz, off int
	r        int
	// ctrs holds each part's multi-index counters, r per part.
	ctrs []int
}

// copy runs plan p (see stridedCopy.copy) on pool; nil runs it on the
// caller.
func (c *parCopy) copy(pool *workerPool, p *stridedCopy, dst, src []byte, esz, off int) {
	r := p.coalesce()
	if r < 0 {
		return
	}
	p.dims, p.st = p.dims[:r], p.st[:r]
	if r == 0 || pool == nil {
		p.copy(dst, src, esz, off)
		return
	}
	n := p.dims[r-1]
	rows := mulDims(p.dims[:r-1])
	work := n
	if p.st[r-1] != 1 {
		work *= 2 // a gather, not a block copy
	}
	c.ctrs = growInts(&c.ctrs, pool.size()*r)
	c.p, c.dst, c.src, c.esz, c.off, c.r = p, dst, src, esz, off, r
	c.par.run(pool, c, rows, work)
	c.p, c.dst, c.src = nil, nil, nil
}

// runRange copies destination rows [lo, hi).
func (c *parCopy) runRange(part, lo, hi int) {
	ctr := c.ctrs[part*c.r : part*c.r+c.r-1]
	switch c.esz {
	case 1:
		stridedRows(c.p, wordsOf[uint8](c.dst), wordsOf[uint8](c.src), ctr, c.off, lo, hi)
	case 2:
		stridedRows(c.p, wordsOf[uint16](c.dst), wordsOf[uint16](c.src), ctr, c.off, lo, hi)
	case 4:
		stridedRows(c.p, wordsOf[uint32](c.dst), wordsOf[uint32](c.src), ctr, c.off, lo, hi)
	case 8:
		stridedRows(c.p, wordsOf[uint64](c.dst), wordsOf[uint64](c.src), ctr, c.off, lo, hi)
	}
}

// stridedRows is stridedWords for destination rows [lo, hi) of a
// coalesced plan of rank len(ctr)+1 >= 1, with ctr as its counters.
func stridedRows[W word](p *stridedCopy, dst, src []W, ctr []int, off, lo, hi int) {
	r := len(ctr) + 1
	n, ist := p.dims[r-1], p.st[r-1]
	// Start at row lo: its multi-index over the outer dims.
	i := lo
	for k := r - 2; k >= 0; k-- {
		ctr[k] = i % p.dims[k]
		i /= p.dims[k]
		off += ctr[k] * p.st[k]
	}
	for row := lo; row < hi; row++ {
		d := dst[row*n : row*n+n]
		switch ist {
		case 1:
			copy(d, src[off:off+n])
		case 0:
			v := src[off]
			for i := range d {
				d[i] = v
			}
		default:
			s := off
			for i := range d {
				d[i] = src[s]
				s += ist
			}
		}
		for k := r - 2; k >= 0; k-- {
			ctr[k]++
			off += p.st[k]
			if ctr[k] < p.dims[k] {
				break
			}
			off -= p.st[k] * p.dims[k]
			ctr[k] = 0
		}
	}
}
