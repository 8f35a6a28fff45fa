package cpu

// Nearest-neighbour upsampling by exactly two along the last two dims
// (every other dim kept), the decoders' and feature pyramids' most
// common Resize, skips the general index maps: each input row is
// doubled into the two output rows it makes (dup2RowsMany).

// up2Fits reports whether the index maps of k.p, for x resized to y,
// are that case: output index o of the last two dims reads o/2, every
// other dim is the identity.
func (k *resizeKernel) up2Fits(x, y *tensor) bool {
	r := len(x.shape)
	if r < 2 {
		return false
	}
	for d := range r {
		m := k.p.mapOf(d)
		if d < r-2 {
			if y.shape[d] != x.shape[d] {
				return false
			}
			for o, v := range m {
				if v != o {
					return false
				}
			}
			continue
		}
		if y.shape[d] != 2*x.shape[d] {
			return false
		}
		for o, v := range m {
			if v != o/2 {
				return false
			}
		}
	}
	return true
}

// up2Call doubles planes of h×w elements of esz bytes from src into dst,
// split by planes across the pool.
type up2Call struct {
	dst, src  []byte
	esz, h, w int
}

// runRange doubles planes [lo, hi).
func (c *up2Call) runRange(_, lo, hi int) {
	switch c.esz {
	case 1:
		up2Planes(wordsOf[uint8](c.dst), wordsOf[uint8](c.src), c.h, c.w, lo, hi)
	case 2:
		up2Planes(wordsOf[uint16](c.dst), wordsOf[uint16](c.src), c.h, c.w, lo, hi)
	case 4:
		up2Planes(wordsOf[uint32](c.dst), wordsOf[uint32](c.src), c.h, c.w, lo, hi)
	case 8:
		up2Planes(wordsOf[uint64](c.dst), wordsOf[uint64](c.src), c.h, c.w, lo, hi)
	}
}

// up2Planes doubles planes [lo, hi) of h×w words of src into dst
// (2h×2w words each).
func up2Planes[W word](dst, src []W, h, w, lo, hi int) {
	// The planes' rows follow one another, in src and in dst: source
	// row r of the range makes output rows 2r and 2r+1.
	dup2RowsMany(dst[lo*4*h*w:hi*4*h*w], src[lo*h*w:hi*h*w], (hi-lo)*h, w)
}

// runUp2 runs the case up2Fits accepted.
func (k *resizeKernel) runUp2(x, y *tensor) {
	r := len(x.shape)
	h, w := x.shape[r-2], x.shape[r-1]
	planes := mulDims(x.shape[:r-2])
	k.up2 = up2Call{dst: y.data, src: x.data, esz: x.dt.Size(), h: h, w: w}
	k.par.run(k.pool, &k.up2, planes, 4*h*w)
	k.up2.dst, k.up2.src = nil, nil
}
