package cpu

import (
	"encoding/binary"
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// QLinearSigmoid, QLinearLeakyRelu and QLinearConcat of ONNX Runtime's
// contrib domain map each 8-bit value through a table of 256, as ONNX
// Runtime does: every value x is dequantized in float32 as
// x_scale·(x - x_zero_point), transformed (the identity for Concat), and
// quantized as MLAS's QuantizeLinear does: divided by y_scale, clamped to
// the type's range less y_zero_point, rounded half to even, plus
// y_zero_point. The table is built once at load when the scales and zero
// points are constants, else on each run into the kernel's own.

// qTable is a 256-entry lookup table of one 8-bit type.
type qTable [256]byte

// qTransform maps the 256 dequantized values in place.
type qTransform func(v *[256]float32)

// qParams are the scales and zero points of a table.
type qParams struct {
	xs, ys float32
	xz, yz int32
}

// build fills t for 8-bit values of type int8 (s8) or uint8, with v as
// scratch (the transform keeps it from living on the stack).
func (t *qTable) build(p qParams, s8 bool, f qTransform, v *[256]float32) {
	for i := range v {
		x := int32(i)
		if s8 {
			x = int32(int8(i))
		}
		v[i] = p.xs * float32(x-p.xz)
	}
	if f != nil {
		f(v)
	}
	lo, hi := int32(0), int32(math.MaxUint8)
	if s8 {
		lo, hi = math.MinInt8, math.MaxInt8
	}
	flo, fhi := float32(lo-p.yz), float32(hi-p.yz)
	for i, x := range v {
		q := x / p.ys
		// MAXPS and MINPS return their second operand, the bound, for NaN.
		if !(q > flo) {
			q = flo
		}
		if !(q < fhi) {
			q = fhi
		}
		t[i] = byte(cvtps(q) + p.yz)
	}
}

// apply maps src through t into dst (lut8).
func (t *qTable) apply(dst, src []byte) { lut8(dst, src, (*[256]byte)(t)) }

// lut8Go maps src through t into dst, eight bytes a step: lut8's twin.
func lut8Go(dst, src []byte, t *[256]byte) {
	dst = dst[:len(src)]
	for len(src) >= 8 {
		s, d := src[:8:8], dst[:8:8]
		d[0], d[1], d[2], d[3] = t[s[0]], t[s[1]], t[s[2]], t[s[3]]
		d[4], d[5], d[6], d[7] = t[s[4]], t[s[5]], t[s[6]], t[s[7]]
		src, dst = src[8:], dst[8:]
	}
	for i, x := range src {
		dst[i] = t[x]
	}
}

// mlasLogistic is MLAS's logistic function (sigmoid32, as its FMA3
// kernel computes it on x86 CPUs with AVX2).
func mlasLogistic(v *[256]float32) {
	for i, x := range v {
		v[i] = sigmoid32(x)
	}
}

// leakyTransform returns LeakyRelu with slope alpha.
func leakyTransform(alpha float32) qTransform {
	return func(v *[256]float32) {
		for i, x := range v {
			if !(x >= 0) {
				v[i] = alpha * x
			}
		}
	}
}

// qlookupKernel runs QLinearSigmoid and QLinearLeakyRelu.
type qlookupKernel struct {
	n     *model.Node
	f     qTransform
	fixed bool
	tab   qTable
	v     [256]float32
}

// qParamsAt reads the scales and zero points of inputs xs, xz (-1 or
// absent: 0), ys, yz.
func qParamsAt(nd *model.Node, in []*tensor, xs, xz, ys, yz int) (qParams, error) {
	var p qParams
	var err error
	names := nd.Inputs
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return "zero point"
	}
	if p.xs, err = qScale(nd, in[xs], name(xs)); err != nil {
		return p, err
	}
	if p.ys, err = qScale(nd, in[ys], name(ys)); err != nil {
		return p, err
	}
	if p.xz, err = qZero(nd, optIn(in, xz), name(xz)); err != nil {
		return p, err
	}
	p.yz, err = qZero(nd, optIn(in, yz), name(yz))
	return p, err
}

// constTensor views a constant as a tensor (nil for nil).
func constTensor(w *model.Tensor) *tensor {
	if w == nil {
		return nil
	}
	return &tensor{dt: w.DType, shape: w.Shape, data: w.Raw}
}

// constParams reads the scales and zero points of inputs xs, xz, ys, yz
// when all that are present are constants; ok is false otherwise. An
// absent zero point (xz or yz past the inputs or unnamed) counts as 0.
func constParams(c *buildCtx, xs, xz, ys, yz int) (p qParams, ok bool, err error) {
	in := make([]*tensor, max(xs, xz, ys, yz)+1)
	for _, i := range []int{xs, xz, ys, yz} {
		if c.inType(i) == payload.Undefined {
			continue
		}
		w := constTensor(c.constInput(i))
		if w == nil || len(w.data) < w.dt.Size()*max(w.numel(), 0) {
			return p, false, nil
		}
		in[i] = w
	}
	p, err = qParamsAt(c.n, in, xs, xz, ys, yz)
	if err != nil {
		return p, false, c.invalid("%v", err)
	}
	return p, true, nil
}

func (k *qlookupKernel) run(in, out []*tensor) error {
	if !k.fixed {
		p, err := qParamsAt(k.n, in, 1, 2, 3, 4)
		if err != nil {
			return err
		}
		k.tab.build(p, in[0].dt == payload.Int8, k.f, &k.v)
	}
	k.tab.apply(out[0].data, in[0].data[:in[0].numel()])
	return nil
}

// buildQLookup checks the types of QLinearSigmoid or QLinearLeakyRelu and
// builds the table when the scales and zero points are constants.
func buildQLookup(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.QLinearLookupAttrs)
	if err := qRequired(c, 3); err != nil {
		return nil, err
	}
	dt := c.inType(0)
	if !q8(dt) {
		return nil, c.unsupported("X of element type %s (supported: int8, uint8)", dt)
	}
	for _, i := range []int{2, 4} {
		if t := c.inType(i); t != payload.Undefined && t != dt {
			return nil, c.invalid("%s of element type %s for X of %s", c.op.InputNames[i], t, dt)
		}
	}
	if err := qFloatScales(c, 1, 3); err != nil {
		return nil, err
	}
	k := &qlookupKernel{n: c.n, f: mlasLogistic}
	if a.Leaky {
		k.f = leakyTransform(a.Alpha)
	}
	p, ok, err := constParams(c, 1, 2, 3, 4)
	if err != nil {
		return nil, err
	}
	if ok {
		k.tab.build(p, dt == payload.Int8, k.f, &k.v)
		k.fixed = true
	}
	return k, nil
}

// qconcatKernel runs QLinearConcat: each input is copied, or mapped
// through its table when its scale or zero point differs from Y's.
type qconcatKernel struct {
	n    *model.Node
	axis int64
	// per input: fixed (built at load), copy (same parameters as Y), tab.
	fixed, copy []bool
	tabs        []qTable
	v           [256]float32
}

func (k *qconcatKernel) run(in, out []*tensor) error {
	y := out[0]
	s8 := y.dt == payload.Int8
	nin := (len(in) - 2) / 3
	r := len(y.shape)
	ax := int(k.axis)
	if ax < 0 {
		ax += r
	}
	outer := 1
	for _, d := range y.shape[:ax] {
		outer *= d
	}
	inner := 1
	for _, d := range y.shape[ax+1:] {
		inner *= d
	}
	ypitch := y.shape[ax] * inner
	off := 0
	for j := range nin {
		x := in[2+3*j]
		if !k.fixed[j] {
			p, err := qParamsAt(k.n, in, 3+3*j, 4+3*j, 0, 1)
			if err != nil {
				return err
			}
			if in[4+3*j].dt != in[1].dt {
				return shapeErr(k.n, "zero point of input %d of type %s, Y_zero_point's %s", j, in[4+3*j].dt, in[1].dt)
			}
			k.copy[j] = p.xs == p.ys && p.xz == p.yz
			if !k.copy[j] {
				k.tabs[j].build(p, s8, nil, &k.v)
			}
		}
		pitch := 0
		if len(x.shape) == r {
			pitch = x.shape[ax] * inner
		}
		if pitch == 0 {
			continue
		}
		for o := range outer {
			src := x.data[o*pitch : (o+1)*pitch]
			dst := y.data[o*ypitch+off : o*ypitch+off+pitch]
			if k.copy[j] {
				copy(dst, src)
			} else {
				k.tabs[j].apply(dst, src)
			}
		}
		off += pitch
	}
	return nil
}

// buildQConcat checks QLinearConcat's types and builds the tables of the
// inputs whose scales and zero points are constants.
func buildQConcat(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.QLinearConcatAttrs)
	dt := c.inType(1)
	if !q8(dt) {
		return nil, c.unsupported("Y_zero_point of element type %s (supported: int8, uint8)", dt)
	}
	if c.inType(0) != payload.Float32 {
		return nil, c.unsupported("Y_scale of element type %s (supported: float32)", c.inType(0))
	}
	nin := (len(c.n.Inputs) - 2) / 3
	k := &qconcatKernel{n: c.n, axis: a.Axis, fixed: make([]bool, nin), copy: make([]bool, nin), tabs: make([]qTable, nin)}
	for j := range nin {
		x, s, z := 2+3*j, 3+3*j, 4+3*j
		if c.inType(x) != dt || c.inType(z) != dt {
			return nil, c.invalid("input %d of element type %s with a zero point of %s, Y_zero_point's %s", j, c.inType(x), c.inType(z), dt)
		}
		if c.inType(s) != payload.Float32 {
			return nil, c.unsupported("scale of input %d of element type %s (supported: float32)", j, c.inType(s))
		}
		p, ok, err := constParams(c, s, z, 0, 1)
		if err != nil {
			return nil, err
		}
		if ok {
			k.fixed[j] = true
			k.copy[j] = p.xs == p.ys && p.xz == p.yz
			if !k.copy[j] {
				k.tabs[j].build(p, dt == payload.Int8, nil, &k.v)
			}
		}
	}
	return k, nil
}

// qgapKernel runs QLinearGlobalAveragePool as MLAS does: each channel's
// int32 sum less x_zero_point·image, times x_scale/(y_scale·image) in
// float32, rounded half to even, plus y_zero_point, saturated.
type qgapKernel struct {
	n    *model.Node
	last bool
	acc  []int32
}

func (k *qgapKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	p, err := qParamsAt(k.n, in, 1, 2, 3, 4)
	if err != nil {
		return err
	}
	s := x.shape
	nb, ch := s[0], s[1]
	lo, hi := 2, len(s)
	if k.last {
		ch = s[len(s)-1]
		lo, hi = 1, len(s)-1
	}
	img := 1
	for _, d := range s[lo:hi] {
		img *= d
	}
	if img >= 1<<24 {
		return shapeErr(k.n, "image of %d elements: ONNX Runtime's limit is 2^24", img)
	}
	scale := p.xs / (p.ys * float32(img))
	if !(scale >= 0x1p-32 && scale < 256) {
		return shapeErr(k.n, "x_scale/(y_scale·image) = %g is out of the range [2^-32, 256) ONNX Runtime computes in", scale)
	}
	acc := growI32(&k.acc, nb*ch)
	s8 := x.dt == payload.Int8
	bias := -p.xz * int32(img)
	// int8 sums are the uint8 sums of the bytes xor 0x80, less 128 each.
	var flip byte
	if s8 {
		flip = 0x80
		bias -= 128 * int32(img)
	}
	if k.last {
		for b := range nb {
			a := acc[b*ch : (b+1)*ch]
			for c := range a {
				a[c] = bias
			}
			for i := range img {
				row := x.data[(b*img+i)*ch : (b*img+i+1)*ch]
				a = a[:len(row)]
				for c, v := range row {
					a[c] += int32(v ^ flip)
				}
			}
		}
	} else {
		for c := range acc {
			acc[c] = bias + int32(sumBytes(x.data[c*img:(c+1)*img], flip))
		}
	}
	lo8, hi8, _ := quantRange(y.dt)
	requantRun(y.data[:len(acc)], acc, scale, float64(p.yz), lo8, hi8)
	return nil
}

func init() {
	registerMS("QLinearSigmoid", buildQLookup)
	registerMS("QLinearLeakyRelu", buildQLookup)
	registerMS("QLinearConcat", buildQConcat)
	registerMS("QLinearGlobalAveragePool", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.QLinearGlobalAveragePoolAttrs)
		dt := c.inType(0)
		if !q8(dt) {
			return nil, c.unsupported("X of element type %s (supported: int8, uint8)", dt)
		}
		for _, i := range []int{2, 4} {
			if c.inType(i) != dt {
				return nil, c.invalid("%s of element type %s for X of %s", c.op.InputNames[i], c.inType(i), dt)
			}
		}
		if err := qFloatScales(c, 1, 3); err != nil {
			return nil, err
		}
		return &qgapKernel{n: c.n, last: a.ChannelsLast}, nil
	})
}

// sumBytesGo returns the sum of the bytes of x, each xor flip, modulo 2³²:
// eight at a time, in four 16-bit lanes of a uint64 that each gain at
// most 510 a word, emptied every 128 words (65280 < 2¹⁶).
func sumBytesGo(x []byte, flip byte) uint32 {
	const lo = 0x00ff00ff00ff00ff
	f := uint64(flip) * 0x0101010101010101
	var total uint64
	for len(x) >= 8 {
		nw := min(len(x)/8, 128)
		var acc uint64
		for i := range nw {
			w := binary.LittleEndian.Uint64(x[8*i:]) ^ f
			acc += w&lo + (w>>8)&lo
		}
		total += acc&0xffff + (acc>>16)&0xffff + (acc>>32)&0xffff + acc>>48
		x = x[8*nw:]
	}
	for _, v := range x {
		total += uint64(v ^ flip)
	}
	return uint32(total)
}
