package cpu

import "fmt"

// im2col unrolls the windows of x (channels planes of geometry g.in) into
// col, one row per (channel, kd, kh, kw) tap and one column per output
// position; taps that fall in the padding read as zero.
func im2col[E float32 | float64](g *geom, x []E, channels int, col []E) {
	inSz, outSz := size3(g.in), size3(g.out)
	r := 0
	for c := range channels {
		xc := x[c*inSz : (c+1)*inSz]
		for kd := range g.k[0] {
			for kh := range g.k[1] {
				for kw := range g.k[2] {
					im2colRow(g, xc, kd, kh, kw, col[r*outSz:(r+1)*outSz])
					r++
				}
			}
		}
	}
}

// im2colPack unrolls the windows of one image and group, as im2col
// does, straight into the packed-B layout of packB for the kdim×outSz
// matrix (kdim = channels × taps), splitting the panels across the
// worker pool. When output rows are whole panels (OW a multiple of
// gemmNR) each panel is filled in turn, writing memory in order;
// otherwise each part unrolls each tap's row over its panels' columns,
// then copies it to them. Its scratch grows only when too small.
type im2colPack struct {
	// pad and offs are the zero-padded planes and tap offsets of the
	// unit-stride 2-D windows (im2colPadPlanes).
	pad  []float32
	offs []int
	// parts' rows and kernel-column ranges.
	scratch []im2colScratch
	call    im2colCall
}

// im2colScratch is one part's scratch.
type im2colScratch struct {
	row    []float32
	ranges []int
	_      [cacheLine]byte
}

// im2colCall is one packing, read by every part.
type im2colCall struct {
	dst, x   []float32
	g        *geom
	channels int
	// padded: the windows read pad (im2colPadPlanes ran).
	padded bool
	parts  int
}

// pack fills dst with the packed windows of x (channels planes of
// geometry g), on pool's threads when the copy is large enough.
func (p *im2colPack) pack(pool *workerPool, dst []float32, g *geom, x []float32, channels int) {
	outSz := size3(g.out)
	kdim := channels * size3(g.k)
	panels := ceilDiv(outSz, gemmNR)
	if outSz == 0 || kdim == 0 {
		return
	}
	if need := packedBSize(kdim, outSz); len(dst) < need {
		panic(fmt.Sprintf("im2col: packed B has %d elements, want %d", len(dst), need))
	}
	parts := 1
	if pool != nil {
		parts = min(pool.size(), panels, max(1, kdim*outSz/(1<<15)))
	}
	for len(p.scratch) < parts {
		p.scratch = append(p.scratch, im2colScratch{})
	}
	padded := g.out[2]%gemmNR == 0 && g.s[2] == 1 && g.k[0] == 1 && g.in[0] == 1
	if padded {
		im2colPadPlanes(g, x, channels, &p.pad, &p.offs)
	}
	p.call = im2colCall{dst: dst, x: x, g: g, channels: channels, padded: padded, parts: parts}
	if parts == 1 {
		p.runPart(0)
	} else {
		pool.run(p, parts)
	}
	p.call = im2colCall{}
}

// runPart packs panels [part*panels/parts, (part+1)*panels/parts).
func (p *im2colPack) runPart(part int) {
	cl := &p.call
	g := cl.g
	outSz := size3(g.out)
	panels := ceilDiv(outSz, gemmNR)
	j0, j1 := part*panels/cl.parts, (part+1)*panels/cl.parts
	s := &p.scratch[part]
	switch {
	case cl.padded:
		im2colPadded(cl.dst, g, p.pad, p.offs, j0, j1)
	case g.out[2]%gemmNR == 0:
		im2colPanels(cl.dst, g, cl.x, cl.channels, &s.ranges, j0, j1)
	default:
		n := min(j1*gemmNR, outSz) - j0*gemmNR
		if cap(s.row) < n {
			s.row = make([]float32, n)
		}
		im2colRows(cl.dst, g, cl.x, cl.channels, s.row[:n], j0, j1)
	}
}

// im2colRows packs panels [j0, j1): each tap's row over the panels'
// columns is unrolled into row, then copied to them.
func im2colRows(dst []float32, g *geom, x []float32, channels int, row []float32, j0, j1 int) {
	inSz, outSz := size3(g.in), size3(g.out)
	np := roundUp(outSz, gemmNR)
	kdim := channels * size3(g.k)
	c0, c1 := j0*gemmNR, min(j1*gemmNR, outSz)
	p := 0
	for c := range channels {
		xc := x[c*inSz : (c+1)*inSz]
		for kd := range g.k[0] {
			for kh := range g.k[1] {
				for kw := range g.k[2] {
					p0 := p / gemmKC * gemmKC
					kcb := min(gemmKC, kdim-p0)
					base := p0*np + (p-p0)*gemmNR
					p++
					im2colRowRange(g, xc, kd, kh, kw, row, c0, c1)
					for j := c0; j < c1; j += gemmNR {
						d := dst[base+j*kcb : base+j*kcb+gemmNR]
						n := copy(d, row[j-c0:])
						clear(d[n:])
					}
				}
			}
		}
	}
}

// im2colRowRange is im2colRow for the output positions [c0, c1) only,
// written to row[:c1-c0].
func im2colRowRange(g *geom, xc []float32, kd, kh, kw int, row []float32, c0, c1 int) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OH, OW := g.out[1], g.out[2]
	offW := kw*g.d[2] - g.pb[2]
	lo, hi := tapRange(offW, g.s[2], IW, OW)
	if c0 >= c1 {
		return
	}
	r, a := c0/OW, c0%OW
	od, oh := r/OH, r%OH
	for pos := c0; pos < c1; {
		b := min(OW, a+c1-pos)
		dst := row[pos-c0 : pos-c0+b-a]
		pos += b - a
		id := od*g.s[0] - g.pb[0] + kd*g.d[0]
		ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
		l, h := min(max(lo, a), b), max(min(hi, b), a)
		if id < 0 || id >= ID || ih < 0 || ih >= IH || l >= h {
			clear(dst)
		} else {
			src := xc[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
			for i := a; i < l; i++ {
				dst[i-a] = 0
			}
			for i := h; i < b; i++ {
				dst[i-a] = 0
			}
			switch {
			case g.s[2] != 1:
				for ow := l; ow < h; ow++ {
					dst[ow-a] = src[ow*g.s[2]+offW]
				}
			case h-l >= 16:
				copy(dst[l-a:h-a], src[l+offW:h+offW])
			default:
				d, sv := dst[l-a:h-a], src[l+offW:h+offW]
				for i := range d {
					d[i] = sv[i]
				}
			}
		}
		a = 0
		if oh++; oh == OH {
			oh, od = 0, od+1
		}
	}
}

// im2colPadPlanes copies x into zero-padded planes in *pad (grown when
// too small), from which every tap of a panel of a 2-D window of unit
// column stride is gemmNR contiguous values at (*offs)[t] + (row
// offset); *offs grows when too small.
func im2colPadPlanes(g *geom, x []float32, channels int, pad *[]float32, offs *[]int) {
	IH, IW := g.in[1], g.in[2]
	KH, KW := g.k[1], g.k[2]
	PH, PW := IH+g.pb[1]+g.pe[1], IW+g.pb[2]+g.pe[2]
	if len(*pad) < channels*PH*PW {
		*pad = make([]float32, channels*PH*PW)
	}
	pp := (*pad)[:channels*PH*PW]
	clear(pp)
	for c := range channels {
		for ih := range IH {
			o := (c*PH+ih+g.pb[1])*PW + g.pb[2]
			copy(pp[o:o+IW], x[(c*IH+ih)*IW:(c*IH+ih+1)*IW])
		}
	}
	kdim := channels * KH * KW
	if cap(*offs) < kdim {
		*offs = make([]int, kdim)
	}
	of := (*offs)[:kdim]
	t := 0
	for c := range channels {
		for kh := range KH {
			for kw := range KW {
				of[t] = (c*PH+kh*g.d[1])*PW + kw*g.d[2]
				t++
			}
		}
	}
}

// im2colPadded packs panels [j0, j1) of output rows that are whole
// panels from the padded planes pp (im2colPadPlanes), each with
// gather16.
func im2colPadded(dst []float32, g *geom, pp []float32, of []int, j0, j1 int) {
	OH, OW := g.out[1], g.out[2]
	PW := g.in[2] + g.pb[2] + g.pe[2]
	kdim := len(of)
	np := OH * OW
	perRow := OW / gemmNR
	for p0 := 0; p0 < kdim; p0 += gemmKC {
		kcb := min(gemmKC, kdim-p0)
		for jp := j0; jp < j1; jp++ {
			oh, ow0 := jp/perRow, jp%perRow*gemmNR
			d := dst[p0*np+jp*kcb*gemmNR : p0*np+(jp+1)*kcb*gemmNR]
			gather16(d, pp, of[p0:p0+kcb], oh*g.s[1]*PW+ow0)
		}
	}
}

// gather16Go copies base[offs[t]+add:][:16] to dst[16t:][:16] for every
// t.
func gather16Go(dst, base []float32, offs []int, add int) {
	for t, o := range offs {
		copy(dst[16*t:16*t+16], base[o+add:o+add+16])
	}
}

// im2colPanels packs panels [j0, j1) of output rows that are whole
// panels (gemmNR outputs of one row), tap by tap, each panel's gemmNR
// values written after the previous tap's.
func im2colPanels(dst []float32, g *geom, x []float32, channels int, ranges *[]int, j0, j1 int) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	KD, KH, KW := g.k[0], g.k[1], g.k[2]
	s := g.s[2]
	inSz := ID * IH * IW
	kdim := channels * KD * KH * KW
	np := OD * OH * OW
	perRow := OW / gemmNR
	if cap(*ranges) < 3*KW {
		*ranges = make([]int, 3*KW)
	}
	rg := (*ranges)[:3*KW]
	for kw := range KW {
		off := kw*g.d[2] - g.pb[2]
		lo, hi := tapRange(off, s, IW, OW)
		rg[3*kw], rg[3*kw+1], rg[3*kw+2] = off, lo, hi
	}
	for p0 := 0; p0 < kdim; p0 += gemmKC {
		kcb := min(gemmKC, kdim-p0)
		for jp := j0; jp < j1; jp++ {
			r, ow0 := jp/perRow, jp%perRow*gemmNR
			od, oh := r/OH, r%OH
			d := dst[p0*np+jp*kcb*gemmNR : p0*np+(jp+1)*kcb*gemmNR]
			p, q := 0, 0
			for c := range channels {
				xc := x[c*inSz : (c+1)*inSz]
				for kd := range KD {
					id := od*g.s[0] - g.pb[0] + kd*g.d[0]
					for kh := range KH {
						ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
						inside := id >= 0 && id < ID && ih >= 0 && ih < IH
						var src []float32
						if inside {
							src = xc[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
						}
						for kw := range KW {
							if p < p0 || p >= p0+kcb {
								p++
								continue
							}
							p++
							dd := (*[gemmNR]float32)(d[q : q+gemmNR])
							q += gemmNR
							off, lo, hi := rg[3*kw], rg[3*kw+1], rg[3*kw+2]
							a, b := max(lo, ow0), min(hi, ow0+gemmNR)
							if !inside || a >= b {
								*dd = [gemmNR]float32{}
								continue
							}
							if s == 1 && a == ow0 && b == ow0+gemmNR {
								*dd = *(*[gemmNR]float32)(src[ow0+off : ow0+off+gemmNR])
								continue
							}
							*dd = [gemmNR]float32{}
							if s == 1 {
								copy(dd[a-ow0:b-ow0], src[a+off:b+off])
								continue
							}
							for ow := a; ow < b; ow++ {
								dd[ow-ow0] = src[ow*s+off]
							}
						}
					}
				}
			}
		}
	}
}

// im2colRow unrolls tap (kd, kh, kw) of plane xc into row, one value per
// output position; taps in the padding read as zero.
func im2colRow[E float32 | float64](g *geom, xc []E, kd, kh, kw int, row []E) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	offW := kw*g.d[2] - g.pb[2]
	lo, hi := tapRange(offW, g.s[2], IW, OW)
	for od := range OD {
		id := od*g.s[0] - g.pb[0] + kd*g.d[0]
		for oh := range OH {
			ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
			dst := row[(od*OH+oh)*OW : (od*OH+oh+1)*OW]
			if id < 0 || id >= ID || ih < 0 || ih >= IH {
				clear(dst)
				continue
			}
			src := xc[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
			clear(dst[:lo])
			clear(dst[hi:])
			if g.s[2] == 1 && lo < hi { // an empty range may have no valid offset
				copy(dst[lo:hi], src[lo+offW:hi+offW])
			} else {
				for ow := lo; ow < hi; ow++ {
					dst[ow] = src[ow*g.s[2]+offW]
				}
			}
		}
	}
}

// col2im is im2col's adjoint: it adds each tap row of col back into the
// planes of y (geometry g.in), skipping taps in the padding. y must hold
// its initial values (zero or bias).
func col2im[E float32 | float64](g *geom, col []E, channels int, y []E) {
	inSz, outSz := size3(g.in), size3(g.out)
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	r := 0
	for c := range channels {
		yc := y[c*inSz : (c+1)*inSz]
		for kd := range g.k[0] {
			for kh := range g.k[1] {
				for kw := range g.k[2] {
					row := col[r*outSz : (r+1)*outSz]
					r++
					offW := kw*g.d[2] - g.pb[2]
					lo, hi := tapRange(offW, g.s[2], IW, OW)
					for od := range OD {
						id := od*g.s[0] - g.pb[0] + kd*g.d[0]
						if id < 0 || id >= ID {
							continue
						}
						for oh := range OH {
							ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
							if ih < 0 || ih >= IH {
								continue
							}
							src := row[(od*OH+oh)*OW : (od*OH+oh+1)*OW]
							dst := yc[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
							if g.s[2] == 1 && lo < hi { // an empty range may have no valid offset
								d := dst[lo+offW : hi+offW]
								for i, v := range src[lo:hi] {
									d[i] += v
								}
							} else {
								for ow := lo; ow < hi; ow++ {
									dst[ow*g.s[2]+offW] += src[ow]
								}
							}
						}
					}
				}
			}
		}
	}
}

// depthwiseConv convolves one plane x with one filter w (g.k taps) into y,
// starting from bias b.
func depthwiseConv[E float32 | float64](g *geom, x, w []E, b E, y []E) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	KH, KW := g.k[1], g.k[2]
	for i := range y {
		y[i] = b
	}
	for od := range OD {
		for oh := range OH {
			dst := y[(od*OH+oh)*OW : (od*OH+oh+1)*OW]
			for kd := range g.k[0] {
				id := od*g.s[0] - g.pb[0] + kd*g.d[0]
				if id < 0 || id >= ID {
					continue
				}
				for kh := range KH {
					ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
					if ih < 0 || ih >= IH {
						continue
					}
					src := x[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
					for kw := range KW {
						wv := w[(kd*KH+kh)*KW+kw]
						off := kw*g.d[2] - g.pb[2]
						lo, hi := tapRange(off, g.s[2], IW, OW)
						if g.s[2] == 1 && lo < hi { // an empty range may have no valid offset
							s := src[lo+off : hi+off]
							d := dst[lo:hi]
							for i, v := range s {
								d[i] += wv * v
							}
						} else {
							for ow := lo; ow < hi; ow++ {
								dst[ow] += wv * src[ow*g.s[2]+off]
							}
						}
					}
				}
			}
		}
	}
}
