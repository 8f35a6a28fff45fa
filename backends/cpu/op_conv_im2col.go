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
// taps): each tap's row is unrolled into row, then copied to its panels.
func packIm2col(dst []float32, g *geom, x []float32, channels int, row []float32) {
	inSz, outSz := size3(g.in), size3(g.out)
	np := roundUp(outSz, gemmNR)
	kdim := channels * size3(g.k)
	// Rows of whole panels go straight into them.
	direct := g.out[2]%gemmNR == 0
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
					if direct {
						im2colPanels(g, xc, kd, kh, kw, dst[base:], kcb)
						continue
					}
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

// im2colPanels is im2colRow for output rows of whole panels (OW a
// multiple of gemmNR), written straight into the packed layout: output
// position j goes to dst[(j/gemmNR)*kcb*gemmNR + j%gemmNR].
func im2colPanels(g *geom, xc []float32, kd, kh, kw int, dst []float32, kcb int) {
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	s := g.s[2]
	offW := kw*g.d[2] - g.pb[2]
	lo, hi := tapRange(offW, s, IW, OW)
	ps := kcb * gemmNR
	jp := 0
	for od := range OD {
		id := od*g.s[0] - g.pb[0] + kd*g.d[0]
		for oh := range OH {
			ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
			inside := id >= 0 && id < ID && ih >= 0 && ih < IH
			var src []float32
			if inside {
				src = xc[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
			}
			for ow0 := 0; ow0 < OW; ow0 += gemmNR {
				d := (*[gemmNR]float32)(dst[jp*ps : jp*ps+gemmNR])
				jp++
				a, b := max(lo, ow0), min(hi, ow0+gemmNR)
				if !inside || a >= b {
					*d = [gemmNR]float32{}
					continue
				}
				if a == ow0 && b == ow0+gemmNR && s == 1 {
					*d = [gemmNR]float32(src[ow0+offW : ow0+offW+gemmNR])
					continue
				}
				*d = [gemmNR]float32{}
				if s == 1 {
					copy(d[a-ow0:b-ow0], src[a+offW:b+offW])
					continue
				}
				for ow := a; ow < b; ow++ {
					d[ow-ow0] = src[ow*s+offW]
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
			if g.s[2] == 1 {
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
							if g.s[2] == 1 {
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
						if g.s[2] == 1 {
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
