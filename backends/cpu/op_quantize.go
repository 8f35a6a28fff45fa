package cpu

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear. They read
// every element type through the wide float64 scratch of the casts to the
// small types (readFloats, writeFloats in op_cast_low.go), and compute as
// ONNX Runtime does: in float32, x / scale rounded half to even, plus the
// zero point, clamped to the output type's range; (x - zero point) *
// scale for dequantization.

// quantMap locates each element's scale and zero point: x is viewed as
// outer×axis×inner, and element (o, a, i) reads index
// o*oS + (a/bs)*aS + i*iS of the scale. A per-tensor scale has every
// stride 0, a per-axis one aS = 1.
type quantMap struct {
	outer, axis, inner, bs, oS, aS, iS int
}

// planQuantIn is planQuant on a node's inputs: x, its scale and its
// optional zero point.
func planQuantIn(n *model.Node, q *model.Quant, in []*tensor) (quantMap, error) {
	nz := -1
	if z := optIn(in, 2); z != nil {
		nz = z.numel()
	}
	return planQuant(n, q, in[0].shape, in[1].shape, nz)
}

// planQuant maps a scale of dims s onto an input of dims x as q says,
// with a zero point of nz elements (-1: none).
func planQuant(n *model.Node, q *model.Quant, x, s []int, nz int) (quantMap, error) {
	ns := payload.NumElems(s)
	if nz >= 0 && nz != ns {
		return quantMap{}, shapeErr(n, "zero point of %d elements for a scale of %d", nz, ns)
	}
	if q.BlockSize == 0 && len(s) <= 1 && ns == 1 {
		return quantMap{outer: 1, axis: 1, inner: payload.NumElems(x), bs: 1}, nil
	}
	ax, ok := wrapAxis(q.Axis, len(x))
	if !ok || q.PerTensorOnly {
		return quantMap{}, shapeErr(n, "scale of shape %v for an input of shape %v, axis %d", s, x, q.Axis)
	}
	m := quantMap{outer: payload.NumElems(x[:ax]), axis: x[ax], inner: payload.NumElems(x[ax+1:]), bs: 1}
	if q.BlockSize == 0 {
		if len(s) != 1 || s[0] != m.axis {
			return quantMap{}, shapeErr(n, "scale of shape %v for axis %d of %v", s, ax, x)
		}
		m.aS = 1
		return m, nil
	}
	bs := int(q.BlockSize)
	if len(s) != len(x) {
		return quantMap{}, shapeErr(n, "blocked scale of shape %v for an input of shape %v", s, x)
	}
	for i, d := range x {
		want := d
		if i == ax {
			want = (d + bs - 1) / bs
		}
		if s[i] != want {
			return quantMap{}, shapeErr(n, "blocked scale of shape %v for an input of shape %v with block_size %d", s, x, bs)
		}
	}
	m.bs, m.oS, m.aS, m.iS = bs, s[ax]*m.inner, m.inner, 1
	return m, nil
}

// quantRange returns the range of an integer quantized type; ok is false
// for the float types.
func quantRange(dt payload.DType) (lo, hi float64, ok bool) {
	switch dt {
	case payload.Int8:
		return math.MinInt8, math.MaxInt8, true
	case payload.Uint8:
		return 0, math.MaxUint8, true
	case payload.Int16:
		return math.MinInt16, math.MaxInt16, true
	case payload.Uint16:
		return 0, math.MaxUint16, true
	case payload.I4:
		return -8, 7, true
	case payload.U4:
		return 0, 15, true
	case payload.I2:
		return -2, 1, true
	case payload.U2:
		return 0, 3, true
	}
	return 0, 0, false
}

// roundClamp rounds v half to even and adds zp, saturating to [lo, hi]; a
// NaN becomes the zero point.
func roundClamp(v, zp, lo, hi float64) float64 {
	r := math.RoundToEven(v) + zp
	switch {
	case r != r:
		r = zp
	case r < lo:
		r = lo
	case r > hi:
		r = hi
	}
	return r
}

// quantScratch holds the wide copies of the inputs.
type quantScratch struct {
	v, s, z []float64
}

// read copies x, the scale and the zero point (z may be nil) into the
// scratch.
func (q *quantScratch) read(x, s, z *tensor) (v, sc, zp []float64) {
	v = growF64(&q.v, x.numel())
	readFloats(v, x)
	sc = growF64(&q.s, s.numel())
	readFloats(sc, s)
	if z != nil {
		zp = growF64(&q.z, z.numel())
		readFloats(zp, z)
	}
	return v, sc, zp
}

// quantizeKernel is QuantizeLinear; the descriptor's rule
// (model.QuantizeLinearAttrs) sets the output's shape and type.
type quantizeKernel struct {
	n   *model.Node
	a   *model.QuantizeLinearAttrs
	out payload.DType
	// prec is the type the division rounds to.
	prec   payload.DType
	lo, hi float64
	isInt  bool
	m      quantMap
	quantScratch
}

func (k *quantizeKernel) shape(in, out []*tensor) error {
	var err error
	k.m, err = planQuantIn(k.n, &k.a.Quant, in)
	return err
}

// div returns x / s rounded as the precision says: float32 unless the
// precision attribute names another type.
func (k *quantizeKernel) div(x, s float64) float64 {
	switch k.prec {
	case payload.Float64:
		return x / s
	case payload.Float16:
		x16, s16 := float16.Fromfloat32(float32(x)).Float32(), float16.Fromfloat32(float32(s)).Float32()
		return float64(float16.Fromfloat32(x16 / s16).Float32())
	case payload.BF16:
		xb, sb := payload.BFloat16From(float32(x)).Float32(), payload.BFloat16From(float32(s)).Float32()
		return float64(payload.BFloat16From(xb / sb).Float32())
	}
	return float64(float32(x) / float32(s))
}

func (k *quantizeKernel) run(in, out []*tensor) error {
	if k.run8(in, out) {
		return nil
	}
	v, sc, zp := k.read(in[0], in[1], optIn(in, 2))
	m := &k.m
	j := 0
	for o := range m.outer {
		for a := range m.axis {
			base := o*m.oS + (a/m.bs)*m.aS
			for i := range m.inner {
				si := base + i*m.iS
				q, z := k.div(v[j], sc[si]), 0.0
				if zp != nil {
					z = zp[si]
				}
				if k.isInt {
					v[j] = roundClamp(q, z, k.lo, k.hi)
				} else {
					v[j] = float64(float32(q) + float32(z))
				}
				j++
			}
		}
	}
	writeFloats(out[0], v, k.a.Saturate, payload.E8M0Up)
	return nil
}

// run8 is run for float32 x per tensor to int8 or uint8 at float32
// precision, the QuantizeLinear of QDQ models, by dynQuant (AVX-512
// where x is finite), on int8 as uint8 with the zero point moved by 128;
// it reports false, doing nothing, for any other case.
func (k *quantizeKernel) run8(in, out []*tensor) bool {
	x, s, z := in[0], in[1], optIn(in, 2)
	if x.dt != payload.Float32 || s.dt != payload.Float32 || (k.out != payload.Uint8 && k.out != payload.Int8) ||
		k.m.outer != 1 || k.m.axis != 1 || s.numel() != 1 || (z != nil && (z.dt != k.out || z.numel() != 1)) ||
		k.prec == payload.Float64 || k.prec == payload.Float16 || k.prec == payload.BF16 {
		return false
	}
	var zp float64
	if z != nil {
		zp = float64(z.data[0])
		if k.out == payload.Int8 {
			zp = float64(int8(z.data[0]))
		}
	}
	if k.out == payload.Int8 {
		zp += 128
	}
	xs, y := x.f32(), out[0].data[:x.numel()]
	lo, hi, nan := dynRange(xs)
	dynQuant(y, xs, s.f32()[0], zp, nan || math.IsInf(float64(lo), 0) || math.IsInf(float64(hi), 0))
	if k.out == payload.Int8 {
		flipSign(y)
	}
	return true
}

// flipSign xors each byte of b with 0x80: uint8 v to int8 v−128.
func flipSign(b []byte) {
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(b)^0x8080808080808080)
		b = b[8:]
	}
	for i := range b {
		b[i] ^= 0x80
	}
}

// dequantizeKernel is DequantizeLinear; the descriptor's rule
// (model.DequantizeLinearAttrs) sets the output's shape and type.
type dequantizeKernel struct {
	n *model.Node
	a *model.DequantizeLinearAttrs
	m quantMap
	quantScratch
}

func (k *dequantizeKernel) shape(in, out []*tensor) error {
	var err error
	k.m, err = planQuantIn(k.n, &k.a.Quant, in)
	return err
}

func (k *dequantizeKernel) run(in, out []*tensor) error {
	if k.run8(in, out) {
		return nil
	}
	v, sc, zp := k.read(in[0], in[1], optIn(in, 2))
	m := &k.m
	j := 0
	for o := range m.outer {
		for a := range m.axis {
			base := o*m.oS + (a/m.bs)*m.aS
			for i := range m.inner {
				si := base + i*m.iS
				d := v[j]
				if zp != nil {
					d -= zp[si]
				}
				// As ONNX Runtime: the difference to float32, times the
				// scale in float32, rounded once more to a half type.
				v[j] = float64(float32(d) * float32(sc[si]))
				j++
			}
		}
	}
	writeFloats(out[0], v, true, payload.E8M0Up)
	return nil
}

// run8 is run for int8 or uint8 x per tensor to float32, the
// DequantizeLinear of QDQ models, computed as run computes it
// (q8ToF32); it reports false, doing nothing, for any other case.
func (k *dequantizeKernel) run8(in, out []*tensor) bool {
	x, s, z := in[0], in[1], optIn(in, 2)
	if (x.dt != payload.Uint8 && x.dt != payload.Int8) || s.dt != payload.Float32 || out[0].dt != payload.Float32 ||
		k.m.outer != 1 || k.m.axis != 1 || s.numel() != 1 || (z != nil && (z.dt != x.dt || z.numel() != 1)) {
		return false
	}
	var zp int32
	signed := x.dt == payload.Int8
	if z != nil {
		zp = int32(z.data[0])
		if signed {
			zp = int32(int8(z.data[0]))
		}
	}
	y := out[0].f32()
	q8ToF32(y, x.data, zp, s.f32()[0], signed)
	return true
}

// dynQuantKernel is DynamicQuantizeLinear, as ONNX Runtime computes it:
// the range of x widened to hold 0, scale (max-min)/255 (1 when the range
// is empty), zero point round(clamp(-min/scale, 0, 255)), then
// QuantizeLinear to uint8 with them.
type dynQuantKernel struct{}

func (dynQuantKernel) run(in, out []*tensor) error {
	x := in[0].f32()
	lo, hi, nan := dynRange(x)
	scale := float32(1)
	if hi != lo {
		scale = (hi - lo) / 255
	}
	zp := roundClamp(float64(min(max(0-lo/scale, 0), 255)), 0, 0, 255)
	dynQuant(out[0].u8(), x, scale, zp, nan)
	// A node may leave out the scale and zero point outputs.
	if o := optIn(out, 1); o != nil {
		o.f32()[0] = scale
	}
	if o := optIn(out, 2); o != nil {
		o.u8()[0] = uint8(zp)
	}
	return nil
}

// dynRangeGo returns the range of x widened to hold 0, NaNs skipped, and
// whether x holds a NaN.
func dynRangeGo(x []float32) (lo, hi float32, nan bool) {
	for _, v := range x {
		// Comparisons skip NaN, which the builtin min and max would keep.
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
		if v != v {
			nan = true
		}
	}
	return lo, hi, nan
}

// dynQuantGo writes y[i] = x[i]/scale, in float32, rounded half to even,
// plus zp, saturated to uint8; a NaN quotient gives zp.
func dynQuantGo(y []byte, x []float32, scale float32, zp float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] = uint8(roundClamp(float64(v/scale), zp, 0, 255))
	}
}

// quantFloat reports whether dt is a float type the quantization kernels
// take as a scale or produce from dequantization.
func quantFloat(dt payload.DType) bool {
	return dt == payload.Float32 || dt == payload.Float16 || dt == payload.BF16
}

// dequantizable reports whether DequantizeLinear reads dt.
func dequantizable(dt payload.DType) bool {
	return model.QuantizedType(dt) || dt == payload.Int32
}

func init() {
	register("QuantizeLinear", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.QuantizeLinearAttrs)
		x, s := c.inType(0), c.inType(1)
		if !quantFloat(x) && x != payload.Int32 {
			return nil, c.unsupported("input of element type %s", x)
		}
		if !quantFloat(s) {
			return nil, c.unsupported("scale of element type %s", s)
		}
		out := a.OutType(c.inType(2))
		if !model.QuantizedType(out) {
			return nil, c.unsupported("output element type %s", out)
		}
		k := &quantizeKernel{n: c.n, a: a, out: out, prec: a.Precision}
		k.lo, k.hi, k.isInt = quantRange(out)
		return k, nil
	})
	register("DequantizeLinear", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.DequantizeLinearAttrs)
		x, s := c.inType(0), c.inType(1)
		if !dequantizable(x) {
			return nil, c.unsupported("input of element type %s", x)
		}
		if !quantFloat(s) {
			return nil, c.unsupported("scale of element type %s", s)
		}
		if out := a.OutType(s); !quantFloat(out) {
			return nil, c.unsupported("output element type %s", out)
		}
		return &dequantizeKernel{n: c.n, a: a}, nil
	})
	register("DynamicQuantizeLinear", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32); err != nil {
			return nil, err
		}
		return dynQuantKernel{}, nil
	})
}
