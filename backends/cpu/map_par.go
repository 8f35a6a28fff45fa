package cpu

// parMap runs a mapCopy plan (nearest Resize) with its destination rows
// split across a worker pool, and two shortcuts that keep every bit: a
// row whose outer indices map to the same input row as the row before
// (upsampling repeats rows) is a copy of that row, and an inner map that
// repeats each input index f times from 0 (i ↦ i/f, upsampling by an
// integer factor) writes each input value f times instead of gathering.
type parMap struct {
	par      parFor
	p        *mapCopy
	dst, src []byte
	esz      int
	fill     uint64
	// rep is the inner map's repeat factor f, 0 when it is not i/f.
	rep int
	r   int
	// ctrs holds each part's multi-index counters, r per part.
	ctrs []int
}

// copy runs plan p (see mapCopy.copy) on pool; nil runs it on the
// caller.
func (c *parMap) copy(pool *workerPool, p *mapCopy, dst, src []byte, esz int, fill uint64) {
	for _, d := range p.dims {
		if d == 0 {
			return
		}
	}
	r := len(p.dims)
	if r == 0 {
		p.copy(dst, src, esz, fill)
		return
	}
	n := p.dims[r-1]
	c.rep = repeatFactor(p.mapOf(r - 1))
	c.ctrs = growInts(&c.ctrs, pool.size()*r)
	c.p, c.dst, c.src, c.esz, c.fill, c.r = p, dst, src, esz, fill, r
	c.par.run(pool, c, mulDims(p.dims[:r-1]), n)
	c.p, c.dst, c.src = nil, nil, nil
}

// repeatFactor returns f >= 2 when m[i] == i/f for every i, else 0.
func repeatFactor(m []int) int {
	f := 0
	for f < len(m) && m[f] == 0 {
		f++
	}
	if f < 2 {
		return 0
	}
	for i, v := range m {
		if v != i/f {
			return 0
		}
	}
	return f
}

// runRange fills destination rows [lo, hi).
func (c *parMap) runRange(part, lo, hi int) {
	ctr := c.ctrs[part*c.r : part*c.r+c.r-1]
	switch c.esz {
	case 1:
		mapRows(c.p, wordsOf[uint8](c.dst), wordsOf[uint8](c.src), ctr, uint8(c.fill), c.rep, lo, hi)
	case 2:
		mapRows(c.p, wordsOf[uint16](c.dst), wordsOf[uint16](c.src), ctr, uint16(c.fill), c.rep, lo, hi)
	case 4:
		mapRows(c.p, wordsOf[uint32](c.dst), wordsOf[uint32](c.src), ctr, uint32(c.fill), c.rep, lo, hi)
	case 8:
		mapRows(c.p, wordsOf[uint64](c.dst), wordsOf[uint64](c.src), ctr, c.fill, c.rep, lo, hi)
	}
}

// mapRows is mapWords for destination rows [lo, hi) of a plan of rank
// len(ctr)+1 >= 1, with ctr as its counters; rep is the inner map's
// repeat factor (see repeatFactor).
func mapRows[W word](p *mapCopy, dst, src []W, ctr []int, fill W, rep, lo, hi int) {
	r := len(ctr) + 1
	inner := p.mapOf(r - 1)
	ist := p.st[r-1]
	n := len(inner)
	i := lo
	for k := r - 2; k >= 0; k-- {
		ctr[k] = i % p.dims[k]
		i /= p.dims[k]
	}
	prevBase, prevOK := -1, false
	for row := lo; row < hi; row++ {
		base, ok := 0, true
		for k, c := range ctr {
			m := p.idx[p.start[k]+c]
			if m < 0 {
				ok = false
				break
			}
			base += m * p.st[k]
		}
		o := row * n
		d := dst[o : o+n]
		switch {
		case row > lo && ok == prevOK && (!ok || base == prevBase):
			copy(d, dst[o-n:o])
		case !ok:
			for i := range d {
				d[i] = fill
			}
		case rep == 2 && ist == 1:
			h := n / 2
			dup2(d, src[base:base+h])
			if n%2 != 0 {
				d[n-1] = src[base+h]
			}
		case rep > 0:
			for j := 0; j*rep < n; j++ {
				v := src[base+j*ist]
				seg := d[j*rep : min(j*rep+rep, n)]
				for t := range seg {
					seg[t] = v
				}
			}
		default:
			for i, m := range inner {
				if m < 0 {
					d[i] = fill
				} else {
					d[i] = src[base+m*ist]
				}
			}
		}
		prevBase, prevOK = base, ok
		for k := r - 2; k >= 0; k-- {
			ctr[k]++
			if ctr[k] < p.dims[k] {
				break
			}
			ctr[k] = 0
		}
	}
}
