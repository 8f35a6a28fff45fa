package cpu

// The ConvTranspose whose kernel equals its stride, with no dilation,
// padding or output padding (the 2×2 stride-2 upsampling of detection
// and segmentation heads): each output cell takes exactly one tap, so
// instead of clearing the output and adding the product's columns into
// it (col2im), one pass writes every cell once, its column value plus
// the bias, split across threads by rows; a stride of 2 across
// interleaves two column rows with AVX. Each cell is the bias plus its
// tap, the same float32 sum as col2im's, so the same bits.

// tiles reports whether the kernel's geometry is one runTiled computes.
func (k *convTransposeKernel) tiles() bool {
	g := &k.g
	if g.pointwise() {
		return false // the product writes the output itself
	}
	for i := range maxSpatial {
		if g.k[i] != g.s[i] || g.d[i] != 1 || g.pb[i] != 0 || g.in[i] != g.out[i]*g.s[i] {
			return false
		}
	}
	return g.k[0] == 1
}

// runTiled is convTransposeRun for the geometries tiles accepts.
func (k *convTransposeKernel) runTiled(x, w, bias, y []float32) {
	g := &k.g
	ySz, xSz, kSz := size3(g.in), size3(g.out), size3(g.k)
	cg, mg := k.inC/k.group, k.outC/k.group
	rows := mg * kSz
	if len(k.col32) < rows*xSz {
		k.col32 = make([]float32, rows*xSz)
	}
	c := k.col32[:rows*xSz]
	sc := &k.scatter
	sc.ih, sc.iw, sc.sh, sc.sw = g.out[1], g.out[2], g.s[1], g.s[2]
	for n := range k.batch {
		for grp := range k.group {
			xg := x[(n*k.inC+grp*cg)*xSz : (n*k.inC+(grp+1)*cg)*xSz]
			wg := w[grp*cg*rows : (grp+1)*cg*rows]
			gemmF(k.gc, nil, true, false, rows, xSz, cg, wg, rows, xg, xSz, 0, c, xSz)
			sc.col, sc.y = c, y[(n*k.outC+grp*mg)*ySz:(n*k.outC+(grp+1)*mg)*ySz]
			sc.bias = nil
			if bias != nil {
				sc.bias = bias[grp*mg : (grp+1)*mg]
			}
			sc.par.run(k.gc.pool, sc, mg*sc.ih, 2*ySz/max(sc.ih, 1))
		}
	}
	sc.col, sc.y, sc.bias = nil, nil, nil
}

// convTScatter writes a tiled ConvTranspose's output channels from its
// columns: column row (c·sh + kh)·sw + kw, of ih rows by iw, holds the
// taps (kh, kw) of output channel c, whose output row r·sh + kh takes
// them at columns j·sw + kw. An item is one channel's input row r.
type convTScatter struct {
	par            parFor
	col, y, bias   []float32
	ih, iw, sh, sw int
}

// runRange writes the output rows of items [lo, hi).
func (s *convTScatter) runRange(_, lo, hi int) {
	plane, ow := s.ih*s.iw, s.iw*s.sw
	for it := lo; it < hi; it++ {
		c, r := it/s.ih, it%s.ih
		var b float32
		if s.bias != nil {
			b = s.bias[c]
		}
		for kh := range s.sh {
			dst := s.y[((c*s.ih+r)*s.sh+kh)*ow:][:ow]
			src := s.col[(c*s.sh+kh)*s.sw*plane+r*s.iw:]
			if s.sw == 2 {
				interleave2Add(dst, src[:s.iw], src[plane:][:s.iw], b)
				continue
			}
			for kw := range s.sw {
				for j, v := range src[kw*plane:][:s.iw] {
					dst[j*s.sw+kw] = v + b
				}
			}
		}
	}
}
