package cpu

import "fmt"

// dwPlan runs float32 depthwise convolutions over one or two spatial dims
// on a padded, stride-split copy of each input plane, so that every tap
// of an output row reads a contiguous run and dwRow can sum all the taps
// of a row in registers.
//
// The copy holds s (the column stride) phase planes: phase r keeps the
// padded columns c ≡ r (mod s), in order, for every padded row. Tap
// (kh, kw) of output (oh, ow) reads padded column ow*s + kw*dw, which is
// column ow + (kw*dw)/s of phase (kw*dw) mod s.
type dwPlan struct {
	// pad is the copy, grown only when too small.
	pad []float32
	// phaseOff and phaseW are each phase's offset in pad and width.
	phaseOff, phaseW []int
	// off0 and step give tap t's offset in pad for output row oh:
	// off0[t] + oh*step[t]; offs holds them for the current row.
	off0, step, offs []int
	rows             int // padded rows
}

// dwFits reports whether dwPlan runs geometry g: at most two spatial
// dims, strides up to 8 (the plan keeps one phase per stride step) and a
// padded plane near the input's size (the plan copies it into a buffer),
// so that hostile strides and pads cannot size its buffers.
func dwFits(g *geom) bool {
	if g.k[0] != 1 || g.in[0] != 1 || g.out[0] != 1 || g.s[1] > 8 || g.s[2] > 8 {
		return false
	}
	ph, pw := g.in[1]+g.pb[1]+g.pe[1], g.in[2]+g.pb[2]+g.pe[2]
	return ph <= (4*g.in[1]*g.in[2]+4096)/max(pw, 1)
}

// prepare sizes the plan for g.
func (p *dwPlan) prepare(g *geom) {
	s := g.s[2]
	pw := g.in[2] + g.pb[2] + g.pe[2]
	p.rows = g.in[1] + g.pb[1] + g.pe[1]
	p.phaseOff, p.phaseW = grow(p.phaseOff, s), grow(p.phaseW, s)
	total := 0
	for r := range s {
		p.phaseOff[r] = total
		p.phaseW[r] = ceilDiv(max(0, pw-r), s)
		total += p.rows * p.phaseW[r]
	}
	if len(p.pad) < total {
		p.pad = make([]float32, total)
	}
	clear(p.pad[:total])
	taps := g.k[1] * g.k[2]
	p.off0, p.step, p.offs = grow(p.off0, taps), grow(p.step, taps), grow(p.offs, taps)
	t := 0
	for kh := range g.k[1] {
		for kw := range g.k[2] {
			c := kw * g.d[2]
			r := c % s
			p.off0[t] = p.phaseOff[r] + kh*g.d[1]*p.phaseW[r] + c/s
			p.step[t] = g.s[1] * p.phaseW[r]
			t++
		}
	}
}

// grow returns s resized to n, reallocated only when too small.
func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// conv convolves plane x with the taps w into y, from bias b, then
// applies ep's activation (nil: none) to the plane.
func (p *dwPlan) conv(g *geom, x, w []float32, b float32, y []float32, ep *gemmEpilogue) {
	s := g.s[2]
	IH, IW := g.in[1], g.in[2]
	OH, OW := g.out[1], g.out[2]
	pad := p.pad[:p.phaseOff[s-1]+p.rows*p.phaseW[s-1]]
	// Every plane writes the same positions of pad, so the padding that
	// prepare cleared stays zero.
	if len(w) < len(p.off0) || len(y) < OH*OW {
		panic(fmt.Sprintf("depthwise: %d weights for %d taps, %d outputs for %d×%d", len(w), len(p.off0), len(y), OH, OW))
	}
	for t, o := range p.off0 {
		if o < 0 || o+(OH-1)*p.step[t]+OW > len(pad) {
			panic(fmt.Sprintf("depthwise: tap %d reads outside the padded plane", t))
		}
	}
	for ih := range IH {
		row := x[ih*IW : (ih+1)*IW]
		ph := ih + g.pb[1]
		if s == 1 {
			copy(pad[ph*p.phaseW[0]+g.pb[2]:], row)
			continue
		}
		for iw, v := range row {
			c := iw + g.pb[2]
			r := c % s
			pad[p.phaseOff[r]+ph*p.phaseW[r]+c/s] = v
		}
	}
	for oh := range OH {
		for t, o := range p.off0 {
			p.offs[t] = o + oh*p.step[t]
		}
		dwRowTrusted(y[oh*OW:(oh+1)*OW], pad, p.offs, w, b)
	}
	if ep != nil {
		// The activation is elementwise: one call over the plane keeps
		// short rows in the vector loop.
		ep.act.apply(y[:OH*OW])
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
