package cpu

import "github.com/lintel-ml/lintel/payload"

// The wide grid of a stride-1 int8 convolution of one or two spatial
// dims. The input is copied once into planes padded with its zero point,
// Hp×Wp each. The output position (oh, ow) is then column oh·Wp+ow of a
// grid as wide as the padded plane, and kernel tap (kh, kw) reads every
// channel's plane shifted by kh·dh·Wp+kw·dw: the GEMM packs B straight
// from the padded planes, tap by tap (qgemmCall.taps), with k ordered
// (tap, channel), and no im2col is written. The grid's columns past each
// output row hold sums of wrapped windows; they are computed and
// dropped. Padding reads as the zero point, so it adds nothing, as in
// the im2col.

// qWideWaste bounds the grid's dropped columns: the padded width may
// exceed the output's by at most 1/qWideWaste of it, else the im2col
// runs.
const qWideWaste = 4

// tapMajorFits reports whether a convolution with kernel dims kern,
// strides stride and cg input channels a group orders its k by tap: one
// or two spatial dims of unit stride, more than one tap, and channels in
// whole groups of the GEMM layout.
func tapMajorFits(kern []int, stride func(int) int, cg int, l qLayout) bool {
	nd := len(kern)
	if nd == 0 || nd > 2 || cg <= 0 || cg%l.g != 0 {
		return false
	}
	taps := 1
	for i, kd := range kern {
		if stride(i) != 1 {
			return false
		}
		taps *= kd
	}
	return taps > 1
}

// tapMajorWeights writes the m rows of w, each cg channels of taps
// values, reordered to taps of cg channels, into dst and returns it.
func tapMajorWeights(dst, w []byte, m, cg int) []byte {
	kk := len(w) / max(m, 1)
	taps := kk / max(cg, 1)
	for r := range m {
		src, d := w[r*kk:(r+1)*kk], dst[r*kk:(r+1)*kk]
		for c := range cg {
			for t := range taps {
				d[t*cg+c] = src[c*taps+t]
			}
		}
	}
	return dst[:m*kk]
}

// setWide sets the wide grid's width and tap offsets for the shape in g,
// or a width of 0 where the im2col runs.
func (k *qconvKernel) setWide() {
	g := &k.g
	k.wideW = 0
	if !k.tapMajor || g.in[0] != 1 || g.k[0] != 1 || g.s != [maxSpatial]int{1, 1, 1} {
		return
	}
	for i := range maxSpatial {
		if g.pb[i] < 0 || g.pe[i] < 0 {
			return
		}
	}
	wp := g.in[2] + g.pb[2] + g.pe[2]
	if wp-g.out[2] > g.out[2]/qWideWaste || g.out[1] < 1 || g.out[2] < 1 {
		return
	}
	k.wideW = wp
	k.taps = k.taps[:0]
	for k1 := range g.k[1] {
		for k2 := range g.k[2] {
			k.taps = append(k.taps, k1*g.d[1]*wp+k2*g.d[2])
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

// runWide runs the convolution on the wide grid (k.wideW > 0), each
// batch's sums into accW, then their output columns into y: as they are
// (ConvInteger), or requantized a channel at a time (QLinearConv).
func (k *qconvKernel) runWide(in []*tensor, y *tensor, pw qPackedA, zwe, zxe []int32, pad byte) error {
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
	h, w, wp := g.in[1], g.in[2], k.wideW
	hp := h + g.pb[1] + g.pe[1]
	plane, oh, ow := hp*wp, g.out[1], g.out[2]
	n := (oh-1)*wp + ow
	kk := cg * len(k.taps)
	blk := roundUp(mg, qMR) * pw.lda
	mask := qMaskB(x.dt == payload.Int8)
	// In place when the kernel reads B so and no weight zero point needs
	// B's column sums.
	direct := k.qg.kern.runTaps != nil && k.qg.kern.l.g == 4 && allZero(zwe)
	var src []byte
	var taps []int
	if direct {
		src = growBytes(&k.padded, 4*k.c*plane+4*qNR)
		taps = growInts(&k.taps4, len(k.taps))
		for i, off := range k.taps {
			taps[i] = 4 * off
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
			pad4Planes(src, xb, k.c, h, w, g.pb[1], g.pe[1], g.pb[2], g.pe[2], pad, mask, margins)
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
				raw: src[grp*cg*plane:], ldb: plane, mask: mask, taps: k.taps, tapRows: cg}
			if direct {
				cl.ldb, cl.taps, cl.direct = 4*plane, taps, true
			}
			k.qg.run(cl)
		}
		if k.qlinear {
			yb, row := y.data[b*k.m*P:(b+1)*k.m*P], growBytes(&k.yw, n)
			for ch := range k.m {
				rq.channel(row, accW[ch*ldc:ch*ldc+n], ch)
				for r := range oh {
					copy(yb[(ch*oh+r)*ow:(ch*oh+r+1)*ow], row[r*wp:])
				}
			}
			continue
		}
		yb := y.i32()[b*k.m*P : (b+1)*k.m*P]
		for ch := range k.m {
			for r := range oh {
				copy(yb[(ch*oh+r)*ow:(ch*oh+r+1)*ow], accW[ch*ldc+r*wp:])
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

// pad4Planes writes the c planes of x, h×w each (c a multiple of 4), as
// padPlanes does but four channels together, each padded pixel the 4
// bytes of channels 4q..4q+3 (plane q), every byte xor mask: B in the
// 4-group layout, read in place.
func pad4Planes(dst, x []byte, c, h, w, pt, pb, pl, pr int, pad, mask byte, margins bool) {
	wp := w + pl + pr
	plane := (h + pt + pb) * wp
	pv := pad ^ mask
	for q := range c / 4 {
		d := dst[4*q*plane : 4*(q+1)*plane]
		for r := range h {
			row := d[4*((pt+r)*wp+pl):]
			interleave4(row[:4*w], x[(4*q*h+r)*w:], h*w, w, mask)
			if margins && r < h-1 {
				fillPad(row[4*w:4*(w+pr+pl)], pv)
			}
		}
		if margins {
			fillPad(d[:4*(pt*wp+pl)], pv)
			fillPad(d[4*((pt+h-1)*wp+pl+w):], pv)
		}
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
