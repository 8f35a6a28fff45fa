package cpu

// Short 1-D convolutions.
//
// The im2col path multiplies the filters (M×K) by the unrolled windows
// (K×N, N output positions) with the windows as the packed SGEMM's B,
// whose panels are gemmNR columns wide: when a 1-D convolution gives only
// a few positions per call, as streaming audio models do on each chunk
// (Silero VAD's STFT and encoder give 4, 2 and 1), most of every panel is
// padding and the kernel does up to gemmNR/N times the work. conv1dShort
// runs such convolutions transposed instead: the windows (N×K, written
// straight into the packed layout of A) times the filters' transpose
// (K×M, packed once as B), into an N×M product with
// the bias by column and the fused activation, then transposed into the
// M×N output. The products sum the same terms in the same order, so the
// outputs are those of the im2col path.

// conv1dShortMaxN is the most output positions per call conv1dShort
// takes: past it, the im2col panels waste at most half their columns.
const conv1dShortMaxN = gemmNR / 2

// conv1dShort is a Conv kernel's state for short 1-D convolutions: the
// filters of its one group packed as B (kdim×M) on the first call that
// takes the path, and the windows and product of one call, all grown
// only when too small.
type conv1dShort struct {
	wt     []float32
	wtFrom []float32 // the filters wt was packed from
	cols   []float32 // N×kdim, packed as A
	prod   []float32 // N×M
	ep     gemmEpilogue
}

// takes reports whether conv1dShort runs geometry g with the filters pa:
// constant float32 filters (packed at load), one group, some input
// channels, one spatial dim of at most conv1dShortMaxN outputs, and at
// least as many output channels as positions. Pointwise filters qualify
// too: their windows are the input itself, whose few columns would also
// fill panels.
func (s *conv1dShort) takes(k *convKernel, g *geom, pa gemmA) bool {
	return pa.packed != nil && conv1dShortFits(g, k.group, k.outC) && k.inC > 0
}

// conv1dShortFits reports whether a geometry of group groups and outC
// output channels is one the short path takes, given packed filters.
func conv1dShortFits(g *geom, group, outC int) bool {
	n := g.out[2]
	return group == 1 && g.nd == 1 && n <= conv1dShortMaxN && outC >= n
}

// run convolves one image xg (k.inC channels) with the filters wg (M×kdim)
// into yg (M×N), adding the bias bg (nil: none) and the fused activation,
// when takes accepts k's geometry and filters; it reports whether it did.
func (s *conv1dShort) run(k *convKernel, xg, wg, bg, yg []float32, pa gemmA) bool {
	g := &k.g
	if !s.takes(k, g, pa) {
		return false
	}
	n, m := g.out[2], k.outC
	cg, kw := k.inC, g.k[2]
	kdim := cg * kw
	if len(s.wtFrom) != len(wg) || &s.wtFrom[0] != &wg[0] {
		// The filters are the constant the load packed (see takes):
		// the same slice on every call, packed on the first.
		s.wt = growF32(&s.wt, packedBSize(kdim, m))
		packB(s.wt, wg, kdim, true, kdim, m, 0, (m+gemmNR-1)/gemmNR)
		s.wtFrom = wg
	}
	cols := growF32(&s.cols, n*kdim)
	prod := growF32(&s.prod, n*m)
	windows1d(g, xg, cg, cols)
	var ep *gemmEpilogue
	if bg != nil || k.ep != nil {
		s.ep.bias = bg
		s.ep.act = epilogue{}
		if k.ep != nil {
			s.ep.act = k.ep.act
		}
		ep = &s.ep
	}
	k.gc.runFused(n, m, kdim, 1, gemmA{packed: cols}, gemmB{packed: s.wt}, 0, prod, m, ep)
	s.ep.bias = nil
	for j := range n {
		row := prod[j*m : (j+1)*m]
		for i, v := range row {
			yg[i*n+j] = v
		}
	}
	return true
}

// windows1d writes the windows of x (channels rows of g.in[2] values)
// into cols as the packed SGEMM's A (packA's layout, see prepackA): one
// row per output position holding, channel by channel, the g.k[2] taps of
// its window, zero where they fall in the padding. In that layout the
// rows of a micro-panel (gemmMR positions) are adjacent for each step,
// so it walks the steps and writes each step's positions in a run.
func windows1d(g *geom, x []float32, channels int, cols []float32) {
	iw, n, kw := g.in[2], g.out[2], g.k[2]
	s, d, pb := g.s[2], g.d[2], g.pb[2]
	kdim := channels * kw
	for ir := 0; ir < n; ir += gemmMR {
		r := min(gemmMR, n-ir)
		// Step p of block [p0, p0+kcb) goes to p0*n + ir*kcb + (p-p0)*r:
		// o walks it, left counts the block's steps to go.
		p0, kcb := 0, min(gemmKC, kdim)
		o, left := ir*kcb, kcb
		for c := range channels {
			xc := x[c*iw : (c+1)*iw]
			for t := range kw {
				dst := cols[o : o+r]
				q := ir*s + t*d - pb
				if q >= 0 && q+(r-1)*s < iw {
					for i := range dst {
						dst[i] = xc[q+i*s]
					}
				} else {
					for i := range dst {
						if p := q + i*s; uint(p) < uint(iw) {
							dst[i] = xc[p]
						} else {
							dst[i] = 0
						}
					}
				}
				o += r
				if left--; left == 0 {
					p0 += gemmKC
					kcb = min(gemmKC, kdim-p0)
					o, left = p0*n+ir*kcb, kcb
				}
			}
		}
	}
}
