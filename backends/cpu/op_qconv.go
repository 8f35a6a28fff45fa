package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// ConvInteger and QLinearConv: the int8 GEMM (qgemm.go) of the weights,
// as A (output channels × input channels·kernel, packed at build when
// constant), and the input's im2col, as B (qIm2col, with the window
// geometry of Conv, fillWindow; a 1×1 unit-stride unpadded window reads
// the input as B directly). Padding reads as the
// input's zero point, so it adds nothing. QLinearConv adds its int32 bias
// and requantizes as QLinearMatMul does.
type qconvKernel struct {
	n       *model.Node
	win     *model.Window
	group   int
	wi      int // the weights' input; their zero point is two on
	qlinear bool
	g       geom
	// cgPad, when not 0, orders the weights' and im2col's k as (kernel
	// offset, channel), cgPad channels an offset (the group's, rounded
	// up to the GEMM layout's group when there is one group), as the
	// wide grid needs (op_qconv_wide.go).
	cgPad int
	// Set by shape: batch, input channels, output channels, and the wide
	// grid's width (0: not used) and tap offsets.
	nb, c, m int
	wideW    int
	wideH    int
	taps     []int
	tapPhase []int
	taps4    []int
	padKey   qPadKey
	qg       *qgemmCtx
	// pw is the weights packed at build (group after group), pwm×pwk,
	// or has no data.
	pw       qPackedA
	pwm, pwk int
	// Scratch: weights packed at run time, zero points and their shifted
	// forms, the int32 sums of QLinearConv, its multipliers and scales.
	pwBuf, col, wperm, padded, yw []byte
	rows4                         []byte
	rowSum, zx, zw, zxe, zwe, acc []int32
	accW                          []int32
	mult                          []float32
	sc                            []float64
	dw                            qconvDW
	f32                           *qconvF32
	// toF, when set, makes the output float32 (ConvIntegerToFloat).
	toF *qconvFloat
}

// qIm2col writes output positions [p0, p0+np) of the im2col of the cg
// channels of x (each of g.in) into dst: one row of np bytes for each
// (channel, kernel offset), channel-major, or, when cgPad is not 0,
// (kernel offset, channel) with cgPad channels an offset, those past cg
// all pad; pad where the window falls outside x.
func qIm2col(g *geom, x []byte, cg int, pad byte, dst []byte, p0, np int, cgPad int) {
	inSz, taps := size3(g.in), size3(g.k)
	for t := range taps {
		for c := cg; c < cgPad; c++ {
			fillPad(dst[(t*cgPad+c)*np:(t*cgPad+c+1)*np], pad)
		}
	}
	for c := range cg {
		xc := x[c*inSz : (c+1)*inSz]
		tap := 0
		for k0 := range g.k[0] {
			for k1 := range g.k[1] {
				for k2 := range g.k[2] {
					row := c*taps + tap
					if cgPad > 0 {
						row = tap*cgPad + c
					}
					tap++
					d := dst[row*np : (row+1)*np]
					// Output positions o2 in [lo, hi) read inside a row.
					off := k2*g.d[2] - g.pb[2]
					lo, hi := tapRangeQ(off, g.s[2], g.in[2], g.out[2])
					o2 := p0 % g.out[2]
					o1 := p0 / g.out[2] % g.out[1]
					o0 := p0 / (g.out[2] * g.out[1])
					for j := 0; j < np; {
						seg := min(np-j, g.out[2]-o2)
						ds := d[j : j+seg]
						i0 := o0*g.s[0] - g.pb[0] + k0*g.d[0]
						i1 := o1*g.s[1] - g.pb[1] + k1*g.d[1]
						if rows := qWholeRows(g, o2, o1, i0, i1, (np-j)/g.out[2]); rows > 1 {
							// Whole output rows reading consecutive input
							// rows of the same width: one copy, then pads
							// at each row's ends.
							W := g.in[2]
							blk := d[j : j+rows*W]
							src := (i0*g.in[1]+i1)*W + off
							c0 := max(0, -src)
							c1 := min(len(blk), len(xc)-src)
							if lo < hi && c0 < c1 {
								copy(blk[c0:c1], xc[src+c0:])
							}
							for r := range rows {
								fillPad(blk[r*W:r*W+lo], pad)
								fillPad(blk[r*W+hi:(r+1)*W], pad)
							}
							j += rows * W
							o1 += rows
							for o1 >= g.out[1] {
								o1 -= g.out[1]
								o0++
							}
							continue
						}
						a, b := max(lo, o2), min(hi, o2+seg)
						if i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1] || a >= b {
							fillPad(ds, pad)
						} else {
							r := xc[(i0*g.in[1]+i1)*g.in[2] : (i0*g.in[1]+i1+1)*g.in[2]]
							fillPad(ds[:a-o2], pad)
							fillPad(ds[b-o2:], pad)
							if g.s[2] == 1 {
								copy(ds[a-o2:b-o2], r[a+off:])
							} else if g.s[2] == 2 {
								evenBytes(ds[a-o2:b-o2], r[2*a+off:])
							} else {
								i2 := a*g.s[2] + off
								for t := a - o2; t < b-o2; t++ {
									ds[t] = r[i2]
									i2 += g.s[2]
								}
							}
						}
						j += seg
						o2 = 0
						if o1++; o1 == g.out[1] {
							o1 = 0
							o0++
						}
					}
				}
			}
		}
	}
}

// qIm2colBytes is the most bytes an im2col block takes: the block holds
// at least qIm2colMin output positions, more while it stays this small.
const (
	qIm2colBytes = 512 << 10
	qIm2colMin   = 8 * qNR
)

// qWholeRows returns how many whole output rows, from output row o1
// (position o2 == 0) and up to most, map to consecutive input rows of a
// plane whose width equals the output's (unit strides along the last two
// dims): 0 when they do not.
func qWholeRows(g *geom, o2, o1, i0, i1, most int) int {
	if o2 != 0 || g.s[2] != 1 || g.s[1] != 1 || g.out[2] != g.in[2] || i0 < 0 || i0 >= g.in[0] || i1 < 0 {
		return 0
	}
	rows := min(most, g.out[1]-o1, g.in[1]-i1)
	return max(rows, 0)
}

// tapRangeQ returns the output positions [lo, hi) whose input position
// o*s + off lies in [0, in), out outputs in all.
func tapRangeQ(off, s, in, out int) (lo, hi int) {
	lo = 0
	if off < 0 {
		lo = (-off + s - 1) / s
	}
	hi = 0
	if in-1-off >= 0 {
		hi = (in-1-off)/s + 1
	}
	hi = min(hi, out)
	lo = min(lo, hi)
	return lo, hi
}

// fillPad sets every byte of d to v, doubling copies past a few bytes.
func fillPad(d []byte, v byte) {
	if len(d) < 16 {
		for i := range d {
			d[i] = v
		}
		return
	}
	d[0] = v
	for n := 1; n < len(d); n *= 2 {
		copy(d[n:], d[:n])
	}
}

func (k *qconvKernel) shape(in, out []*tensor) error {
	x, w := in[0].shape, in[k.wi].shape
	if len(x) != len(w) || len(x) < 3 {
		return shapeErr(k.n, "input %v and weights %v", x, w)
	}
	k.nb, k.c, k.m = x[0], x[1], w[0]
	if err := fillWindow(k.n, k.win, &k.g, x[2:], w[2:]); err != nil {
		return err
	}
	if k.pw.data == nil {
		k.cgPad = tapMajorFits(w[2:], k.win.Stride, w[1], k.group, k.qg.kern.l)
	}
	k.setWide()
	return nil
}

// packWeights returns the weights packed as A, group after group: those
// of build when they match, else packed into the scratch.
func (k *qconvKernel) packWeights(w *tensor, kk int) qPackedA {
	if k.pw.data != nil && k.pwm == k.m && k.pwk == kk {
		return k.pw
	}
	l := k.qg.kern.l
	src := w.data
	if k.cgPad > 0 {
		src = tapMajorWeights(growBytes(&k.wperm, k.m*kk), src, k.m, k.c/k.group, k.cgPad)
	}
	return packQConvWeights(l, src, k.m, kk, k.group, w.dt == payload.Uint8, growBytes(&k.pwBuf, qConvWeightsSize(l, k.m, kk, k.group)), growI32(&k.rowSum, k.m))
}

// qConvWeightsSize is the bytes of m output channels' weights, kk a
// channel, packed as A group by group.
func qConvWeightsSize(l qLayout, m, kk, group int) int {
	return group * roundUp(m/group, qMR) * l.aStride(kk)
}

// packQConvWeights packs the m×kk weights w (uint8 when u8) as A group by
// group, each group's rows padded to qMR, into dst, and the row sums into
// rowSum.
func packQConvWeights(l qLayout, w []byte, m, kk, group int, u8 bool, dst []byte, rowSum []int32) qPackedA {
	mg := m / group
	blk := roundUp(mg, qMR) * l.aStride(kk)
	for grp := range group {
		packQA(l, dst[grp*blk:(grp+1)*blk], w[grp*mg*kk:], kk, mg, kk, u8, rowSum[grp*mg:])
	}
	return qPackedA{data: dst, lda: l.aStride(kk), rowSum: rowSum}
}

func (k *qconvKernel) run(in, out []*tensor) error {
	x, w := in[0], in[k.wi]
	zx, err := zeroPoints(k.n, optIn(in, 2), 1, "x_zero_point", &k.zx)
	if err != nil {
		return err
	}
	zw, err := zeroPoints(k.n, optIn(in, k.wi+2), k.m, "w_zero_point", &k.zw)
	if err != nil {
		return err
	}
	g := &k.g
	cg, mg := k.c/k.group, k.m/k.group
	inSz, kk, P := size3(g.in), cg*size3(g.k), size3(g.out)
	if k.cgPad > 0 {
		kk = k.cgPad * size3(g.k)
	}
	xS8 := x.dt == payload.Int8
	zxe := shiftedZeros(&k.zxe, zx, qShiftB(xS8))
	zwe := shiftedZeros(&k.zwe, zw, qShiftA(w.dt == payload.Uint8))
	var pad byte
	if zx != nil {
		pad = byte(zx[0])
	}
	if k.qlinear {
		if done, err := k.dwQLinear(in, out[0], zx, zw); done || err != nil {
			return err
		}
		if k.f32 != nil && len(zx) == 1 && in[k.wi].data != nil {
			yf, err := k.f32.run(x, zx[0], out[0].shape, out[0].numel())
			if err != nil {
				return err
			}
			return k.requant(in, out[0], nil, yf, false)
		}
	}
	if k.toF != nil {
		if err := k.toF.bind(k.n, in, k.m); err != nil {
			return err
		}
	}
	pw := k.packWeights(w, kk)
	blk := roundUp(mg, qMR) * pw.lda
	y := out[0]
	direct := size3(g.k) == 1 && g.out == g.in && g.s == [maxSpatial]int{1, 1, 1} && g.pb == [maxSpatial]int{}
	if k.wideW > 0 && !direct {
		if wd := k.wideDirect(zwe); wd || (g.s == [maxSpatial]int{1, 1, 1} && k.cgPad == cg) {
			return k.runWide(in, y, pw, zwe, zxe, pad, wd)
		}
	}
	acc := y.i32()
	if k.qlinear {
		acc = growI32(&k.acc, y.numel())
	}
	// The im2col runs in blocks of chunk output positions, small enough
	// to stay in cache between im2col and packing.
	chunk := P
	var col []byte
	if !direct {
		chunk = min(P, max(qIm2colMin, qIm2colBytes/max(kk, 1)/qNR*qNR))
		col = growBytes(&k.col, kk*chunk)
	}
	for b := range k.nb {
		for grp := range k.group {
			xg := x.data[(b*k.c+grp*cg)*inSz : (b*k.c+(grp+1)*cg)*inSz]
			za := zwe
			if len(za) > 1 {
				za = za[grp*mg : (grp+1)*mg]
			}
			cl := qgemmCall{m: mg, n: P, k: kk, za: za, zb: zxe, c: acc[(b*k.m+grp*mg)*P:], ldc: P,
				a: qPackedA{data: pw.data[grp*blk : (grp+1)*blk], lda: pw.lda, rowSum: pw.rowSum[grp*mg : (grp+1)*mg]}}
			cl.raw, cl.ldb, cl.mask = xg, P, qMaskB(xS8)
			if direct {
				k.qg.run(cl)
				if k.toF != nil {
					k.toF.rows(cl.c, P, mg, P, grp*mg)
				}
				continue
			}
			c := cl.c
			for p0 := 0; p0 < P; p0 += chunk {
				np := min(chunk, P-p0)
				qIm2col(g, xg, cg, pad, col, p0, np, k.cgPad)
				cl.raw, cl.ldb, cl.n, cl.c = col, np, np, c[p0:]
				k.qg.run(cl)
				if k.toF != nil {
					k.toF.rows(c[p0:], P, mg, np, grp*mg)
				}
			}
		}
	}
	if !k.qlinear {
		return nil
	}
	return k.requant(in, y, acc, nil, true)
}

// buildQConv returns the kernel of ConvInteger or QLinearConv with the
// weights input wi, packing constant weights as A.
func buildQConv(c *buildCtx, win *model.Window, group, wi int, qlinear bool) (kernel, error) {
	k := &qconvKernel{n: c.n, win: win, group: group, wi: wi, qlinear: qlinear, qg: newQgemmCtx(c.gemmCtx().pool)}
	w := c.constInput(wi)
	if w == nil || len(w.Shape) < 3 || group < 1 || w.Shape[0]%group != 0 || !q8(w.DType) {
		return k, nil
	}
	m, kk := w.Shape[0], payload.NumElems(w.Shape[1:])
	if len(w.Raw) < m*kk {
		return nil, c.invalid("constant weights %q of %d bytes for shape %v", w.Name, len(w.Raw), w.Shape)
	}
	l := k.qg.kern.l
	if win.Fits(len(w.Shape) - 2) {
		k.cgPad = tapMajorFits(w.Shape[2:], win.Stride, w.Shape[1], group, l)
	}
	key, kp := "packedQW", kk
	if k.cgPad > 0 {
		key, kp = "packedQWtaps", k.cgPad*(kk/w.Shape[1])
	}
	pw, err := shareValue(c, key, func() (qPackedA, error) {
		src := w.Raw
		if k.cgPad > 0 {
			src = tapMajorWeights(make([]byte, m*kp), src[:m*kk], m, w.Shape[1], k.cgPad)
		}
		return packQConvWeights(l, src, m, kp, group, w.DType == payload.Uint8, make([]byte, qConvWeightsSize(l, m, kp, group)), make([]int32, m)), nil
	})
	if err != nil {
		return nil, err
	}
	k.pw, k.pwm, k.pwk = pw, m, kp
	// With VNNI (AVX-512 or AVX-VNNI) the int8 GEMM (byte im2col, bias
	// added while requantizing) beats the float32 twin; without it the
	// twin runs.
	if qlinear && group == 1 && !k.qg.kern.vnni() {
		if err := k.buildF32(c, w); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// qRequant is QLinearConv's requantization for one call: the multiplier
// of each output channel (one for all, or one each), the output's zero
// point and range, and the bias to add (nil: none, or in the sums).
type qRequant struct {
	mult       []float32
	zp, lo, hi float64
	bias       []int32
}

// requantOf checks QLinearConv's scales, zero point and, when withBias,
// bias, and returns their requantization.
func (k *qconvKernel) requantOf(in []*tensor, y *tensor, withBias bool) (qRequant, error) {
	sx, sw, sy, zy := in[1], in[4], in[6], in[7]
	if sx.numel() != 1 || sy.numel() != 1 || zy.numel() != 1 {
		return qRequant{}, shapeErr(k.n, "x_scale %v, y_scale %v and y_zero_point %v: want one value each", sx.shape, sy.shape, zy.shape)
	}
	if c := sw.numel(); c != 1 && c != k.m {
		return qRequant{}, shapeErr(k.n, "w_scale of shape %v: want one value or %d", sw.shape, k.m)
	}
	var z [1]int32
	readQ8(z[:], zy)
	r := qRequant{mult: requantScales(&k.mult, &k.sc, sx, sw, sy), zp: float64(z[0])}
	r.lo, r.hi, _ = quantRange(y.dt)
	if b := optIn(in, 8); b != nil && withBias {
		if b.numel() != k.m {
			return qRequant{}, shapeErr(k.n, "bias of shape %v: want %d values", b.shape, k.m)
		}
		r.bias = b.i32()
	}
	return r, nil
}

// channel writes output channel ch's sums acc plus add (wrapping, as
// the sums do), requantized, into dst.
func (r *qRequant) channel(dst []byte, acc []int32, ch int, add int32) {
	m := r.mult[min(ch, len(r.mult)-1)]
	if r.bias != nil || add != 0 {
		if r.bias != nil {
			add += r.bias[ch]
		}
		requantBiasRun(dst, acc, add, m, r.zp, r.lo, r.hi)
		return
	}
	requantRun(dst, acc, m, r.zp, r.lo, r.hi)
}

// requant adds QLinearConv's bias to the sums (unless they hold it
// already: withBias false) and writes its output: from the int32 sums
// acc, or from accF, the exact float32 sums of its float32 twins (bias
// included), when acc is nil.
func (k *qconvKernel) requant(in []*tensor, y *tensor, acc []int32, accF []float32, withBias bool) error {
	rq, err := k.requantOf(in, y, withBias && acc != nil)
	if err != nil {
		return err
	}
	n := max(size3(k.g.out), 1)
	if acc == nil {
		requantizeF32(y, accF, rq.mult, k.m, n, rq.zp)
		return nil
	}
	for r, c := 0, 0; r+n <= len(acc); r, c = r+n, c+1 {
		rq.channel(y.data[r:r+n], acc[r:r+n], c%k.m, 0)
	}
	return nil
}

// convIntegerTypes checks ConvInteger's element types: 8-bit input and
// weights, each zero point of its operand's type.
func convIntegerTypes(c *buildCtx) error {
	if !q8(c.inType(0)) || !q8(c.inType(1)) {
		return c.unsupported("input and weights of element types %s and %s (supported: int8, uint8)", c.inType(0), c.inType(1))
	}
	for i := 2; i < 4; i++ {
		if t := c.inType(i); t != payload.Undefined && t != c.inType(i-2) {
			return c.invalid("zero point %d of type %s for an operand of type %s", i-2, t, c.inType(i-2))
		}
	}
	return nil
}

func init() {
	register("ConvInteger", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.ConvIntegerAttrs)
		if err := convIntegerTypes(c); err != nil {
			return nil, err
		}
		if err := checkWindow(c, &a.Window); err != nil {
			return nil, err
		}
		return buildQConv(c, &a.Window, a.Group, 1, false)
	})
	register("QLinearConv", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.QLinearConvAttrs)
		if err := qlinearTypes(c, 0, 3, 7); err != nil {
			return nil, err
		}
		if t := c.inType(8); t != payload.Undefined && t != payload.Int32 {
			return nil, c.invalid("bias of element type %s (want int32)", t)
		}
		if err := checkWindow(c, &a.Window); err != nil {
			return nil, err
		}
		return buildQConv(c, &a.Window, a.Group, 3, true)
	})
}
