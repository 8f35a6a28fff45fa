package cpu

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

// packIm2col unrolls the windows of x as im2col does, straight into the
// packed-B layout of packB for the kdim×outSz matrix (kdim = channels ×
// taps). When output rows are whole panels (OW a multiple of gemmNR) it
// fills each panel in turn, writing memory in order; otherwise each
// tap's row is unrolled into row, then copied to its panels. ranges
// holds two ints per kernel column, grown when too small.
func packIm2col(dst []float32, g *geom, x []float32, channels int, row []float32, ints *[]int, pad *[]float32) {
	if g.out[2]%gemmNR == 0 && g.s[2] == 1 && g.k[0] == 1 && g.in[0] == 1 {
		im2colPadded(dst, g, x, channels, pad, ints)
		return
	}
	if g.out[2]%gemmNR == 0 {
		im2colPanels(dst, g, x, channels, ints)
		return
	}
	inSz, outSz := size3(g.in), size3(g.out)
	np := roundUp(outSz, gemmNR)
	kdim := channels * size3(g.k)
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
					im2colRow(g, xc, kd, kh, kw, row)
					for j0 := 0; j0 < outSz; j0 += gemmNR {
						d := dst[base+j0*kcb : base+j0*kcb+gemmNR]
						n := copy(d, row[j0:])
						clear(d[n:])
					}
				}
			}
		}
	}
}

// im2colPadded is packIm2col for 2-D windows of unit column stride whose
// output rows are whole panels: it copies x into zero-padded planes in
// pad (grown when too small), from which every tap of every panel is
// gemmNR contiguous values at offs[t] + (row offset), then fills each
// panel in turn with gather16. offs grows when too small.
func im2colPadded(dst []float32, g *geom, x []float32, channels int, pad *[]float32, offs *[]int) {
	IH, IW := g.in[1], g.in[2]
	OH, OW := g.out[1], g.out[2]
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
	np := OH * OW
	for p0 := 0; p0 < kdim; p0 += gemmKC {
		kcb := min(gemmKC, kdim-p0)
		jp := 0
		for oh := range OH {
			for ow0 := 0; ow0 < OW; ow0 += gemmNR {
				d := dst[p0*np+jp*kcb*gemmNR : p0*np+(jp+1)*kcb*gemmNR]
				jp++
				gather16(d, pp, of[p0:p0+kcb], oh*g.s[1]*PW+ow0)
			}
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

// im2colPanels is packIm2col for output rows of whole panels: panel by
// panel (gemmNR outputs of one row), tap by tap, each panel's gemmNR
// values written after the previous tap's.
func im2colPanels(dst []float32, g *geom, x []float32, channels int, ranges *[]int) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	KD, KH, KW := g.k[0], g.k[1], g.k[2]
	s := g.s[2]
	inSz := ID * IH * IW
	kdim := channels * KD * KH * KW
	np := OD * OH * OW
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
		jp := 0
		for od := range OD {
			for oh := range OH {
				for ow0 := 0; ow0 < OW; ow0 += gemmNR {
					d := dst[p0*np+jp*kcb*gemmNR : p0*np+(jp+1)*kcb*gemmNR]
					jp++
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
