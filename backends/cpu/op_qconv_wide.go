package cpu

import "github.com/lintel-ml/lintel/payload"

// The wide grid of an int8 convolution of one or two spatial dims. The
// input is copied once into planes padded with its zero point. With
// stride s, the padded planes are split into s×s phases, phase (py, px)
// holding the padded pixels (r·s+py, c·s+px), Hq×Wq each: kernel tap
// (kh, kw) then reads phase ((kh·dh) mod s, (kw·dw) mod s) shifted by
// ((kh·dh) div s, (kw·dw) div s), a stride-1 view. The output position
// (oh, ow) is column oh·Wq+ow of a grid as wide as a phase (the padded
// plane at stride 1), and the GEMM reads B tap by tap from the planes
// (qgemmCall.taps), its k ordered (tap, channel): no im2col is written.
// The grid's columns past each output row hold sums of wrapped windows;
// they are computed and dropped. Padding reads as the zero point, so it
// adds nothing, as in the im2col.
//
// Where no weight zero point needs B's column sums and the kernel reads
// B in place, the planes hold four channels a pixel and nothing is
// packed (qconvKernel.direct); else, at stride 1 only, the panels are
// packed tap by tap from one-channel planes. Other cases run the im2col
// in tap order.

// qWideWaste bounds the grid's dropped columns: the padded width may
// exceed the output's by at most 1/qWideWaste of it, else the im2col
// runs.
const qWideWaste = 4

// tapMajorFits returns the channels a tap takes when a convolution
// with kernel dims kern, strides stride, cg input channels a group and
// group groups orders its k by tap, or 0 when it does not: one or two
// spatial dims, strides up to qWideStride and more than one tap. A
// tap's channels are cg in whole groups of the GEMM layout, or cg
// rounded up to them when there is one group (the added channels read
// as the input's zero point).
func tapMajorFits(kern []int, stride func(int) int, cg, group int, l qLayout) int {
	nd := len(kern)
	if nd == 0 || nd > 2 || cg <= 0 || (cg%l.g != 0 && group != 1) {
		return 0
	}
	taps := 1
	for i, kd := range kern {
		if s := stride(i); s < 1 || s > qWideStride {
			return 0
		}
		taps *= kd
	}
	if taps <= 1 {
		return 0
	}
	return roundUp(cg, l.g)
}

// qWideStride is the largest stride the wide grid takes.
const qWideStride = 4

// tapMajorWeights writes the m rows of w, each cg channels of taps
// values, reordered to taps of cgPad channels (zeros past cg), into dst
// and returns it.
func tapMajorWeights(dst, w []byte, m, cg, cgPad int) []byte {
	kk := len(w) / max(m, 1)
	taps := kk / max(cg, 1)
	kp := taps * cgPad
	for r := range m {
		src, d := w[r*kk:(r+1)*kk], dst[r*kp:(r+1)*kp]
		clear(d)
		for c := range cg {
			for t := range taps {
				d[t*cgPad+c] = src[c*taps+t]
			}
		}
	}
	return dst[:m*kp]
}

// setWide sets the wide grid for the shape in g: its width (0 where the
// im2col runs), phase sizes and each tap's phase and offset in it.
func (k *qconvKernel) setWide() {
	g := &k.g
	k.wideW = 0
	if k.cgPad == 0 || g.in[0] != 1 || g.k[0] != 1 || g.s[0] != 1 || g.out[1] < 1 || g.out[2] < 1 {
		return
	}
	for i := range maxSpatial {
		if g.pb[i] < 0 || g.pe[i] < 0 || g.s[i] > qWideStride {
			return
		}
	}
	hp, wp := g.in[1]+g.pb[1]+g.pe[1], g.in[2]+g.pb[2]+g.pe[2]
	hq, wq := ceilDiv(hp, g.s[1]), ceilDiv(wp, g.s[2])
	if wq-g.out[2] > g.out[2]/qWideWaste {
		return
	}
	k.wideW, k.wideH = wq, hq
	k.taps, k.tapPhase = k.taps[:0], k.tapPhase[:0]
	for k1 := range g.k[1] {
		for k2 := range g.k[2] {
			r, c := k1*g.d[1], k2*g.d[2]
			k.taps = append(k.taps, r/g.s[1]*wq+c/g.s[2])
			k.tapPhase = append(k.tapPhase, r%g.s[1]*g.s[2]+c%g.s[2])
		}
	}
}

// padPlanes copies the c planes of x, h×w each, into dst as planes of
// (h+pt+pb)×(w+pl+pr), and sets the margins to pad when margins is set
// (else they hold it from an earlier call).
func padPlanes(dst, x []byte, c, h, w, pt, pb, pl, pr int, pad byte, margins bool) {
	wp := w + pl + pr
	plane := (h + pt + pb) * wp
	for ch := range c {
		d, src := dst[ch*plane:(ch+1)*plane], x[ch*h*w:(ch+1)*h*w]
		for r := range h {
			row := d[(pt+r)*wp+pl:]
			copy(row[:w], src[r*w:(r+1)*w])
			if margins && r < h-1 {
				fillPad(row[w:w+pr+pl], pad)
			}
		}
		if margins {
			fillPad(d[:pt*wp+pl], pad)
			fillPad(d[(pt+h-1)*wp+pl+w:], pad)
		}
	}
}

// wideDirect reports whether the wide grid reads B in place for the
// shifted weight zero points zwe: the kernel reads B so and no zero
// point needs B's column sums.
func (k *qconvKernel) wideDirect(zwe []int32) bool {
	return k.qg.kern.runTaps != nil && k.qg.kern.l.g == 4 && allZero(zwe)
}

// runWide runs the convolution on the wide grid (k.wideW > 0, and a
// stride of 1 unless direct), each batch's sums into accW, then their
// output columns into y: as they are (ConvInteger), or requantized a
// channel at a time (QLinearConv).
func (k *qconvKernel) runWide(in []*tensor, y *tensor, pw qPackedA, zwe, zxe []int32, pad byte, direct bool) error {
	var rq qRequant
	if k.qlinear {
		var err error
		if rq, err = k.requantOf(in, y, true); err != nil {
			return err
		}
	}
	x := in[0]
	g := &k.g
	cg, mg := k.c/k.group, k.m/k.group
	h, w, wq := g.in[1], g.in[2], k.wideW
	plane, oh, ow := k.wideH*wq, g.out[1], g.out[2]
	n := (oh-1)*wq + ow
	cp := k.cgPad // channels a tap
	kk := cp * len(k.taps)
	blk := roundUp(mg, qMR) * pw.lda
	mask := qMaskB(x.dt == payload.Int8)
	phases := g.s[1] * g.s[2]
	var src []byte
	var taps []int
	if direct {
		cpAll := roundUp(k.c, 4)
		src = growBytes(&k.padded, phases*cpAll*plane+4*qNR)
		taps = growInts(&k.taps4, len(k.taps))
		for i, off := range k.taps {
			taps[i] = 4 * (k.tapPhase[i]*cpAll/4*plane + off)
		}
	} else {
		src = growBytes(&k.padded, k.c*plane)
	}
	// Rows of sums start on cache lines, as the tiles store them.
	ldc := roundUp(n, cacheLine/4)
	accW := growI32(&k.accW, k.m*ldc)
	P := oh * ow
	// The margins stay from the last call when nothing they depend on
	// changed; the planes' insides never touch them.
	key := qPadKey{buf: &src[0], g: *g, c: k.c, pad: pad, mask: mask, direct: direct}
	margins := key != k.padKey
	k.padKey = key
	for b := range k.nb {
		xb := x.data[b*k.c*h*w : (b+1)*k.c*h*w]
		if direct {
			k.phase4Planes(src, xb, pad, mask, margins)
		} else {
			padPlanes(src, xb, k.c, h, w, g.pb[1], g.pe[1], g.pb[2], g.pe[2], pad, margins)
		}
		margins = false
		for grp := range k.group {
			za := zwe
			if len(za) > 1 {
				za = za[grp*mg : (grp+1)*mg]
			}
			cl := qgemmCall{m: mg, n: n, k: kk, za: za, zb: zxe, c: accW[grp*mg*ldc:], ldc: ldc,
				a:   qPackedA{data: pw.data[grp*blk : (grp+1)*blk], lda: pw.lda, rowSum: pw.rowSum[grp*mg : (grp+1)*mg]},
				raw: src[grp*cg*plane:], ldb: plane, mask: mask, taps: k.taps, tapRows: cp}
			if direct {
				// QLinearConv takes the row correction with its bias.
				cl.ldb, cl.taps, cl.direct, cl.rowOnly = 4*plane, taps, true, k.qlinear && len(zxe) == 1
			}
			k.qg.run(cl)
		}
		if k.qlinear {
			yb, row := y.data[b*k.m*P:(b+1)*k.m*P], growBytes(&k.yw, n)
			for ch := range k.m {
				var add int32
				if direct && len(zxe) == 1 {
					add = -pw.rowSum[ch] * zxe[0]
				}
				rq.channel(row, accW[ch*ldc:ch*ldc+n], ch, add)
				for r := range oh {
					copy(yb[(ch*oh+r)*ow:(ch*oh+r+1)*ow], row[r*wq:])
				}
			}
			continue
		}
		if k.toF != nil {
			yb := y.f32()[b*k.m*P : (b+1)*k.m*P]
			for ch := range k.m {
				for r := range oh {
					k.toF.row(yb[(ch*oh+r)*ow:(ch*oh+r+1)*ow], accW[ch*ldc+r*wq:ch*ldc+r*wq+ow], ch)
				}
			}
			continue
		}
		yb := y.i32()[b*k.m*P : (b+1)*k.m*P]
		for ch := range k.m {
			for r := range oh {
				copy(yb[(ch*oh+r)*ow:(ch*oh+r+1)*ow], accW[ch*ldc+r*wq:])
			}
		}
	}
	return nil
}

// qPadKey is what the padded planes' margins depend on.
type qPadKey struct {
	buf       *byte
	g         geom
	c         int
	pad, mask byte
	direct    bool
}

// allZero reports whether every value of v is zero.
func allZero(v []int32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// phase4Planes writes the input planes x (k.c channels) into dst as the
// wide grid's phases, four channels a pixel: phase p's plane q
// (channels 4q..4q+3, those past k.c reading as pad) starts at pixel
// (p·⌈k.c/4⌉+q)·Hq·Wq, each pixel the 4 bytes of its channels, every
// byte xor mask. With margins, every byte first becomes pad (xor mask);
// the pixels from x are at the same places in every call.
func (k *qconvKernel) phase4Planes(dst, x []byte, pad, mask byte, margins bool) {
	g := &k.g
	h, w, sy, sx := g.in[1], g.in[2], g.s[1], g.s[2]
	pt, pl := g.pb[1], g.pb[2]
	wq, plane := k.wideW, k.wideH*k.wideW
	if margins {
		fillPad(dst, pad^mask)
	}
	groups := ceilDiv(k.c, 4)
	for py := range sy {
		// Phase rows r hold padded row r·sy+py: input row r·sy+py-pt.
		r0 := ceilDiv(max(pt-py, 0), sy)
		r1 := min(k.wideH, ceilDiv(max(h+pt-py, 0), sy))
		for px := range sx {
			c0 := ceilDiv(max(pl-px, 0), sx)
			c1 := min(wq, ceilDiv(max(w+pl-px, 0), sx))
			if r0 >= r1 || c0 >= c1 {
				continue
			}
			nc, ic0 := c1-c0, c0*sx+px-pl
			base := (py*sx + px) * groups * plane
			for q := range groups {
				real := min(4, k.c-4*q)
				if sx == 1 && real == 4 {
					for r := r0; r < r1; r++ {
						ir := r*sy + py - pt
						interleave4(dst[4*(base+q*plane+r*wq+c0):][:4*nc], x[(4*q*h+ir)*w+ic0:], h*w, nc, mask)
					}
					continue
				}
				// Strided or short of four channels: the phase's rows
				// r0..r1, whole, gathered channel by channel into rows
				// (pad in the margins and the added channels), then
				// interleaved in one pass.
				span := (r1 - r0) * wq
				rows := growBytes(&k.rows4, 4*span)
				fillPad(rows, pad)
				for u := range real {
					for r := r0; r < r1; r++ {
						ir := r*sy + py - pt
						gatherStride(rows[u*span+(r-r0)*wq+c0:][:nc], x[((4*q+u)*h+ir)*w+ic0:], sx)
					}
				}
				interleave4(dst[4*(base+q*plane+r0*wq):][:4*span], rows, span, span, mask)
			}
		}
	}
}

// gatherStride writes src[i·s] into dst[i] for each i.
func gatherStride(dst, src []byte, s int) {
	if s == 1 {
		copy(dst, src)
		return
	}
	if s == 2 && len(dst) > 0 {
		evenBytes(dst, src[:2*len(dst)-1])
		return
	}
	for i := range dst {
		dst[i] = src[i*s]
	}
}

// interleave4Go writes n pixels of four rows, ld bytes apart from src,
// as 4 bytes a pixel into dst, each xor mask.
func interleave4Go(dst, src []byte, ld, n int, mask byte) {
	r0, r1, r2, r3 := src[:n], src[ld:ld+n], src[2*ld:2*ld+n], src[3*ld:3*ld+n]
	d := dst[:4*n]
	for i := range n {
		d[4*i] = r0[i] ^ mask
		d[4*i+1] = r1[i] ^ mask
		d[4*i+2] = r2[i] ^ mask
		d[4*i+3] = r3[i] ^ mask
	}
}
