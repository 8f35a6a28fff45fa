package cpu

import "fmt"

// dwPlan runs float32 depthwise convolutions (one input channel per
// group, any number of filters per channel) over one or two spatial
// dims, splitting the input planes across the worker pool.
//
// Each input plane is copied, padded, band of output rows by band, into
// sh×sw phase planes (sh, sw: the row and column strides): phase
// (rh, rw) holds the padded rows ≡ rh (mod sh) and the padded columns
// ≡ rw (mod sw), P floats a row. Tap (kh, kw) of output (oh, ow) reads
// padded row oh*sh + kh*dh and column ow*sw + kw*dw, which is row
// oh + kh*dh/sh, column ow + kw*dw/sw of phase ((kh*dh) mod sh,
// (kw*dw) mod sw): offs[t] + (oh-oh0)*P + ow in the band from output row
// oh0. With j = (oh-oh0)*P + ow every tap is then one contiguous run
// over the band, and dwRow computes a band as one flat row of B*P
// outputs (rounded up to whole vectors), all taps summed in registers;
// the columns [OW, P) of each row are dropped as the rows are copied
// out, and the activation runs over the band while it is in cache. The
// padding is zeros in the copy, so no loop branches on it. Bands keep
// the copy near a level-one cache's size.
type dwPlan struct {
	key dwKey
	// sh, sw are the strides, p the phase row length, band the output
	// rows of a band, bandRows a phase's rows in it (band plus the rows
	// the taps reach below), phaseSz a phase's size, n the outputs
	// computed per band and bufLen the copy's length (its end is zero
	// slack that rounded-up outputs read).
	sh, sw, p, band, bandRows, phaseSz, n, bufLen int
	offs                                          []int
	// k3 is set for a 3×3 kernel of stride and dilation 1, whose taps
	// dw3x3Row computes (the copy then holds its 16 floats of slack).
	k3      bool
	scratch []dwScratch
	call    dwCall
}

// dwKey is the layout a dwPlan was built for.
type dwKey struct {
	g geom
}

// dwScratch is one part's padded copy and flat outputs.
type dwScratch struct {
	pad, out []float32
	_        [cacheLine]byte
}

// dwCall is one call, read by every part.
type dwCall struct {
	x, w, bias, y []float32
	ep            *gemmEpilogue
	g             *geom
	// inPlanes is batch×inC input planes; outC and mult are the output
	// channels and the filters per input channel.
	inPlanes, outC, mult, parts int
}

// dwBlock is the multiple the flat outputs are rounded up to: dwRow's
// widest block (eight vectors, eight FMA chains), so that it never runs
// its narrower blocks, whose one to four chains wait on each tap's FMA
// (small planes' runs of 50 to 200 outputs spent most of their time
// there), nor its scalar tail.
const dwBlock = 64

// dwBandFloats is about the size of a band's copy, in floats.
const dwBandFloats = 4096

// dwFits reports whether dwPlan runs geometry g: at most two spatial
// dims, strides up to 8 and a padded plane near the input's size (the
// plan copies it into a buffer), so that hostile strides and pads cannot
// size its buffers.
func dwFits(g *geom) bool {
	if g.k[0] != 1 || g.in[0] != 1 || g.out[0] != 1 || g.s[1] > 8 || g.s[2] > 8 {
		return false
	}
	ph, pw := g.in[1]+g.pb[1]+g.pe[1], g.in[2]+g.pb[2]+g.pe[2]
	return ph <= (4*g.in[1]*g.in[2]+4096)/max(pw, 1)
}

// prepare lays the plan out for g, unless it is laid out for it already.
func (p *dwPlan) prepare(g *geom) {
	key := dwKey{g: *g}
	if p.offs != nil && p.key == key {
		return
	}
	p.sh, p.sw = g.s[1], g.s[2]
	pw := g.in[2] + g.pb[2] + g.pe[2]
	p.p = ceilDiv(pw, p.sw)
	reach := (g.k[1] - 1) * g.d[1] / p.sh
	p.band = min(g.out[1], max(1, dwBandFloats/(p.sh*p.sw*p.p)-reach))
	p.bandRows = p.band + reach
	p.phaseSz = p.bandRows * p.p
	p.n = roundUp(p.band*p.p, dwBlock)
	taps := g.k[1] * g.k[2]
	p.offs = grow(p.offs, taps)
	maxOff := 0
	t := 0
	for kh := range g.k[1] {
		r := kh * g.d[1]
		for kw := range g.k[2] {
			c := kw * g.d[2]
			o := ((r%p.sh)*p.sw+c%p.sw)*p.phaseSz + r/p.sh*p.p + c/p.sw
			p.offs[t] = o
			maxOff = max(maxOff, o)
			t++
		}
	}
	p.bufLen = max(p.sh*p.sw*p.phaseSz, maxOff+p.n)
	p.k3 = taps == 9 && g.k[1] == 3 && p.sh == 1 && p.sw == 1 && g.d[1] == 1 && g.d[2] == 1
	if p.k3 {
		p.bufLen += 16
	}
	p.key = key
	// Buffers laid out for another geometry hold data in its padding.
	for i := range p.scratch {
		s := &p.scratch[i]
		clear(s.pad[:min(len(s.pad), p.bufLen)])
	}
}

// grow returns s resized to n, reallocated only when too small.
func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// conv convolves the batch×outC/mult planes of x (geometry g) with the
// outC filters of w (mult per input plane) into the batch×outC planes of
// y, each from its bias (nil: zero), then applies ep's activation (nil:
// none), splitting the input planes across pool's threads.
func (p *dwPlan) conv(pool *workerPool, g *geom, x, w, bias, y []float32, batch, outC, mult int, ep *gemmEpilogue) {
	p.prepare(g)
	taps := g.k[1] * g.k[2]
	inSz, outSz := g.in[1]*g.in[2], g.out[1]*g.out[2]
	if batch*outC == 0 || outSz == 0 {
		return
	}
	if mult <= 0 || outC%mult != 0 {
		panic(fmt.Sprintf("depthwise: %d output channels, %d filters per channel", outC, mult))
	}
	inPlanes := batch * outC / mult
	if len(x) < inPlanes*inSz || len(w) < outC*taps || len(y) < batch*outC*outSz || (bias != nil && len(bias) < outC) {
		panic(fmt.Sprintf("depthwise: %d inputs, %d weights, %d outputs, %d biases for %d planes of %d taps", len(x), len(w), len(y), len(bias), batch*outC, taps))
	}
	parts := 1
	if pool != nil {
		parts = min(pool.size(), inPlanes, max(1, batch*outC*outSz*taps/(1<<16)))
	}
	for len(p.scratch) < parts {
		p.scratch = append(p.scratch, dwScratch{})
	}
	for i := range parts {
		s := &p.scratch[i]
		if len(s.pad) < p.bufLen {
			s.pad = make([]float32, p.bufLen)
		}
		if len(s.out) < p.n {
			s.out = make([]float32, p.n)
		}
	}
	p.call = dwCall{x: x, w: w, bias: bias, y: y, ep: ep, g: g, inPlanes: inPlanes, outC: outC, mult: mult, parts: parts}
	if parts == 1 {
		p.runPart(0)
	} else {
		pool.run(p, parts)
	}
	p.call = dwCall{}
}

// runPart computes the output planes of input planes
// [part*inPlanes/parts, (part+1)*inPlanes/parts) of the current call,
// band by band.
func (p *dwPlan) runPart(part int) {
	cl := &p.call
	g := cl.g
	s := &p.scratch[part]
	taps := len(p.offs)
	inSz := g.in[1] * g.in[2]
	OH, OW := g.out[1], g.out[2]
	outSz := OH * OW
	pad := s.pad[:p.bufLen]
	for in := part * cl.inPlanes / cl.parts; in < (part+1)*cl.inPlanes/cl.parts; in++ {
		x := cl.x[in*inSz : (in+1)*inSz]
		for oh0 := 0; oh0 < OH; oh0 += p.band {
			oh1 := min(oh0+p.band, OH)
			p.fill(g, pad, x, oh0)
			n := min(p.n, roundUp((oh1-oh0)*p.p, dwBlock))
			out := s.out[:n]
			for q := in * cl.mult; q < (in+1)*cl.mult; q++ {
				o := q % cl.outC
				var b float32
				if cl.bias != nil {
					b = cl.bias[o]
				}
				if p.k3 {
					dw3x3Row(out, pad, p.offs, p.p, cl.w[o*taps:(o+1)*taps], b)
				} else {
					dwRowTrusted(out, pad, p.offs, cl.w[o*taps:(o+1)*taps], b)
				}
				y := cl.y[q*outSz+oh0*OW : q*outSz+oh1*OW]
				if p.p == OW {
					copy(y, out)
				} else {
					copyStrided(y, OW, out, p.p, OW, oh1-oh0)
				}
				if cl.ep != nil {
					// The activation is elementwise: one call over the
					// band keeps short rows in the vector loop.
					cl.ep.act.apply(y)
				}
			}
		}
	}
}

// fill copies into the phases of pad the padded rows that the band of
// output rows from oh0 reads from plane x: phase row r of phase rh
// holds padded row (oh0+r)*sh + rh, zeros where that is padding. The
// padding columns stay zero from prepare, every band writing the same
// columns.
func (p *dwPlan) fill(g *geom, pad, x []float32, oh0 int) {
	IH, IW := g.in[1], g.in[2]
	pbh, pbw := g.pb[1], g.pb[2]
	sh, sw, P := p.sh, p.sw, p.p
	for rh := range sh {
		// Phase rows [lo, hi) hold input rows (oh0+r)*sh + rh - pbh,
		// sh apart; the others are padding.
		first := oh0*sh + rh - pbh
		lo := min(p.bandRows, ceilDiv(max(0, -first), sh))
		hi := lo
		if IH-first > 0 {
			hi = max(lo, min(p.bandRows, ceilDiv(IH-first, sh)))
		}
		// With one band a plane, every fill writes the same rows: the
		// others stay zero from prepare.
		if p.band < g.out[1] {
			for rw := range sw {
				ph := pad[(rh*sw+rw)*p.phaseSz : (rh*sw+rw+1)*p.phaseSz]
				clear(ph[:lo*P])
				clear(ph[hi*P:])
			}
		}
		rows := hi - lo
		if rows == 0 || IW == 0 {
			continue
		}
		base := rh*sw*p.phaseSz + lo*P
		src := x[(first+lo*sh)*IW:]
		switch sw {
		case 1:
			copyStrided(pad[base+pbw:], P, src, sh*IW, IW, rows)
		case 2:
			// Even input columns go to phase pbw mod 2, odd ones to the
			// other, from padded column pbw on.
			ev := pad[base+(pbw%2)*p.phaseSz+pbw/2:]
			od := pad[base+((pbw+1)%2)*p.phaseSz+(pbw+1)/2:]
			deinterleaveRows(ev, od, P, src, sh*IW, IW, rows)
		default:
			// Phase rw holds the padded columns c ≡ rw (mod sw), the input
			// columns iw = c - pbw from the first such.
			for r := range rows {
				row := src[r*sh*IW : r*sh*IW+IW]
				for rw := range sw {
					iw := ((rw-pbw)%sw + sw) % sw
					d := pad[base+r*P+rw*p.phaseSz+(iw+pbw)/sw:]
					for j := 0; iw < IW; iw, j = iw+sw, j+1 {
						d[j] = row[iw]
					}
				}
			}
		}
	}
}

// copyStridedGo copies rows rows of n floats, sstride apart in src, to
// dst, dstride apart.
func copyStridedGo(dst []float32, dstride int, src []float32, sstride, n, rows int) {
	for r := range rows {
		copy(dst[r*dstride:r*dstride+n], src[r*sstride:r*sstride+n])
	}
}

// deinterleaveRowsGo splits rows rows of n floats, sstride apart in src,
// into their even and odd elements: row r's go to even and odd from
// r*dstride on.
func deinterleaveRowsGo(even, odd []float32, dstride int, src []float32, sstride, n, rows int) {
	for r := range rows {
		deinterleave2Go(even[r*dstride:r*dstride+(n+1)/2], odd[r*dstride:r*dstride+n/2], src[r*sstride:r*sstride+n])
	}
}

// dwRowGo sets dst[i] = bias + Σ_t w[t]*base[offs[t]+i], summed in
// increasing t. Products are rounded before the add (float32(x*y)), so
// the compiler never fuses them.
func dwRowGo(dst, base []float32, offs []int, w []float32, bias float32) {
	dwCheck(dst, base, offs, w)
	for i := range dst {
		acc := bias
		for t, o := range offs {
			acc += float32(w[t] * base[o+i])
		}
		dst[i] = acc
	}
}

// dwCheck panics when a tap would read outside base.
func dwCheck(dst, base []float32, offs []int, w []float32) {
	if len(w) < len(offs) {
		panic(fmt.Sprintf("dwRow: %d weights for %d taps", len(w), len(offs)))
	}
	for _, o := range offs {
		if o < 0 || o+len(dst) > len(base) {
			panic(fmt.Sprintf("dwRow: tap at %d+%d outside %d", o, len(dst), len(base)))
		}
	}
}
