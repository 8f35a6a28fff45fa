package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// QGemm, DynamicQuantizeMatMul and MatMulIntegerToFloat of ONNX
// Runtime's contrib domain run on the int8 GEMM (qgemm.go, ADR 0029),
// constant 2-D weights packed once at load. The int32 products equal ONNX
// Runtime's; the float outputs are float32(product)·scale[j] (+ bias[j]),
// scale[j] computed in float32 in ONNX Runtime's order, and quantized
// outputs are requantized as QLinearMatMul's.

// qmmFloatKernel runs DynamicQuantizeMatMul (dynamic) and
// MatMulIntegerToFloat on qmatmulKernel's product.
type qmmFloatKernel struct {
	q       *qmatmulKernel
	dynamic bool
	// Scratch: A quantized (dynamic), the multipliers and the zero
	// points.
	aq   tensor
	aBuf []byte
	mult []float32
	za   [1]int32
	zb   []int32
	// scale is the call's scaling, handed to the product.
	scale qFloatScale
}

func (k *qmmFloatKernel) shape(in, out []*tensor) error { return k.q.shape(in, out) }

func (k *qmmFloatKernel) run(in, out []*tensor) error {
	nd := k.q.mm.n
	n := k.q.mm.nn
	a, b := in[0], in[1]
	bs, bz, bi := 3, 5, 6
	var as float32
	if k.dynamic {
		bs, bz, bi = 2, 3, 4
		x := a.f32()
		lo, hi, nan := dynRange(x)
		as = 1
		if hi != lo {
			as = (hi - lo) / 255
		}
		zp := roundClamp(float64(min(max(0-lo/as, 0), 255)), 0, 0, 255)
		buf := growBytes(&k.aBuf, len(x))
		dynQuant(buf, x, as, zp, nan)
		k.aq = tensor{dt: payload.Uint8, shape: a.shape, data: buf}
		a = &k.aq
		k.za[0] = int32(zp)
	} else {
		var err error
		if as, err = qScale(nd, in[2], "a_scale"); err != nil {
			return err
		}
		if k.za[0], err = qZero(nd, optIn(in, 4), "a_zero_point"); err != nil {
			return err
		}
	}
	if err := qColumnParam(nd, in[bs], b, n, "b_scale"); err != nil {
		return err
	}
	zbt := optIn(in, bz)
	if zbt != nil {
		if err := qColumnParam(nd, zbt, b, n, "b_zero_point"); err != nil {
			return err
		}
	}
	zb, err := zeroPoints(nd, zbt, n, "b_zero_point", &k.zb)
	if err != nil {
		return err
	}
	var bias []float32
	if t := optIn(in, bi); t != nil {
		if len(t.shape) != 1 || t.shape[0] != n {
			return shapeErr(nd, "bias of shape %v: want [%d]", t.shape, n)
		}
		bias = t.f32()
	}
	// The int32 products go where their float32 values will be, each
	// tile scaled in place as soon as the GEMM stores it.
	sb := in[bs].f32()
	mult := growF32(&k.mult, len(sb))
	for j, s := range sb {
		mult[j] = as * s
	}
	k.scale = qFloatScale{mult: mult, bias: bias}
	k.q.product(a, b, k.za[:], zb, out[0].i32(), &k.scale)
	k.scale = qFloatScale{}
	return nil
}

// qColumnParam checks a scale or zero point of B: one value, or, for a
// 2-D B, one per column (shape [n]), the forms ONNX Runtime applies in its
// GEMM.
func qColumnParam(nd *model.Node, t, b *tensor, n int, what string) error {
	if qScalarShape(t.shape) {
		return nil
	}
	if len(b.shape) == 2 && len(t.shape) == 1 && t.shape[0] == n {
		return nil
	}
	return shapeErr(nd, "%s of shape %v for B of shape %v: want a scalar, or [%d] for a 2-D B", what, t.shape, b.shape, n)
}

// qScaleOut writes y[i] = float32(acc[i])·mult[j] + bias[j] for column
// j = i mod n; mult holds one value or n, bias none or n, row by row
// through qScaleRow.
func qScaleOut(y []float32, acc []int32, mult, bias []float32, n int) {
	y = y[:len(acc)]
	for r := 0; r < len(acc); r += n {
		qScaleRow(y[r:r+n], acc[r:r+n], mult, bias)
	}
}

// qScaleRowsGo turns rows rows of n int32 sums of c, ld apart, into
// float32 values in the same bytes by qScaleRowGo (mult one value or one
// a column of the rows, bias nil or one a column).
func qScaleRowsGo(c []int32, ld, rows, n int, mult, bias []float32) {
	y := f32Alias(c)
	for r := range rows {
		qScaleRowGo(y[r*ld:r*ld+n], c[r*ld:r*ld+n], mult, bias)
	}
}

// f32Alias views c's bytes as float32s.
func f32Alias(c []int32) []float32 {
	if len(c) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&c[0])), len(c))
}

// qScaleRowGo writes y[j] = float32(acc[j])·mult[j] + bias[j] for one
// row; mult holds one value or one a column, bias none or one a column.
// The explicit conversions keep the compiler from fusing the multiply
// with the add.
func qScaleRowGo(y []float32, acc []int32, mult, bias []float32) {
	n := len(acc)
	row, ya := acc, y[:n]
	switch {
	case len(mult) == 1 && bias == nil:
		m := mult[0]
		for j, v := range row {
			ya[j] = float32(v) * m
		}
	case len(mult) == 1:
		m, bias := mult[0], bias[:n]
		for j, v := range row {
			ya[j] = float32(float32(v)*m) + bias[j]
		}
	case bias == nil:
		mult := mult[:n]
		for j, v := range row {
			ya[j] = float32(v) * mult[j]
		}
	default:
		mult, bias := mult[:n], bias[:n]
		for j, v := range row {
			ya[j] = float32(float32(v)*mult[j]) + bias[j]
		}
	}
}

// buildQMMFloat checks the types of DynamicQuantizeMatMul (dynamic) or
// MatMulIntegerToFloat.
func buildQMMFloat(c *buildCtx, dynamic bool) (kernel, error) {
	bt := c.inType(1)
	if !q8(bt) {
		return nil, c.unsupported("B of element type %s (supported: int8, uint8)", bt)
	}
	if dynamic {
		if c.inType(0) != payload.Float32 {
			return nil, c.unsupported("A of element type %s (supported: float32)", c.inType(0))
		}
		if err := qFloatScales(c, 2); err != nil {
			return nil, err
		}
		if t := c.inType(3); t != payload.Undefined && t != bt {
			return nil, c.invalid("b_zero_point of element type %s for B of %s", t, bt)
		}
		if t := c.inType(4); t != payload.Undefined && t != payload.Float32 {
			return nil, c.unsupported("bias of element type %s (supported: float32)", t)
		}
	} else {
		at := c.inType(0)
		if !q8(at) {
			return nil, c.unsupported("A of element type %s (supported: int8, uint8)", at)
		}
		if err := qFloatScales(c, 2, 3); err != nil {
			return nil, err
		}
		for i, want := range map[int]payload.DType{4: at, 5: bt} {
			if t := c.inType(i); t != payload.Undefined && t != want {
				return nil, c.invalid("%s of element type %s for an operand of %s", c.op.InputNames[i], t, want)
			}
		}
		if t := c.inType(6); t != payload.Undefined && t != payload.Float32 {
			return nil, c.unsupported("bias of element type %s (supported: float32)", t)
		}
	}
	q, err := buildQMatMul(c, 0, 1, false)
	if err != nil {
		return nil, err
	}
	return &qmmFloatKernel{q: q.(*qmatmulKernel), dynamic: dynamic}, nil
}

// qgemmOpKernel runs QGemm.
type qgemmOpKernel struct {
	n  *model.Node
	a  *model.QGemmAttrs
	qg *qgemmCtx
	// pb is op(B) (k×n) packed at load, or has no data.
	pb     qPackedB
	pk, pn int
	m, k   int
	nn     int
	// Scratch: the transposed operands, packed A and its row sums, the
	// zero points, the products and the multipliers.
	at, bt          []byte
	pa              []byte
	rowSum, zb, acc []int32
	zae, zbe        []int32
	mult            []float32
}

func (k *qgemmOpKernel) shape(in, out []*tensor) error {
	k.m, k.nn = out[0].shape[0], out[0].shape[1]
	k.k = in[0].shape[1]
	if k.a.TransA {
		k.k = in[0].shape[0]
	}
	return nil
}

// transposeBytes writes the c×r transpose of the r×c byte matrix src into
// *buf and returns it.
func transposeBytes(buf *[]byte, src []byte, r, c int) []byte {
	d := growBytes(buf, r*c)
	for i := range r {
		row := src[i*c : (i+1)*c]
		for j, v := range row {
			d[j*r+i] = v
		}
	}
	return d
}

func (k *qgemmOpKernel) run(in, out []*tensor) error {
	nd := k.n
	m, n, kk := k.m, k.nn, k.k
	a, b := in[0], in[3]
	as, err := qScale(nd, in[1], "a_scale")
	if err != nil {
		return err
	}
	za, err := qZero(nd, in[2], "a_zero_point")
	if err != nil {
		return err
	}
	bs, bz := in[4], in[5]
	if err := qColumnParam(nd, bs, b, n, "b_scale"); err != nil {
		return err
	}
	if err := qColumnParam(nd, bz, b, n, "b_zero_point"); err != nil {
		return err
	}
	if bs.numel() != bz.numel() {
		return shapeErr(nd, "b_scale of shape %v and b_zero_point of shape %v: want one shape", bs.shape, bz.shape)
	}
	zb, err := zeroPoints(nd, bz, n, "b_zero_point", &k.zb)
	if err != nil {
		return err
	}
	ys, yz := optIn(in, 7), optIn(in, 8)
	var ysv float32
	if ys != nil {
		if ysv, err = qScale(nd, ys, "y_scale"); err != nil {
			return err
		}
	}
	var yzv int32
	if yz != nil {
		if yzv, err = qZero(nd, yz, "y_zero_point"); err != nil {
			return err
		}
	}
	ad := a.data
	if k.a.TransA {
		ad = transposeBytes(&k.at, a.data, kk, m)
	}
	aU8, bS8 := a.dt == payload.Uint8, b.dt == payload.Int8
	l := k.qg.kern.l
	lda := l.aStride(kk)
	pa := growBytes(&k.pa, roundUp(m, qMR)*lda)
	rs := growI32(&k.rowSum, m)
	packQA(l, pa, ad, kk, m, kk, aU8, rs)
	var zaa [1]int32
	zaa[0] = za
	acc := growI32(&k.acc, m*n)
	cl := qgemmCall{m: m, n: n, k: kk, a: qPackedA{data: pa, lda: lda, rowSum: rs},
		za: shiftedZeros(&k.zae, zaa[:], qShiftA(aU8)), zb: shiftedZeros(&k.zbe, zb, qShiftB(bS8)), c: acc, ldc: n}
	if k.pb.data != nil && k.pk == kk && k.pn == n {
		cl.b = k.pb
	} else {
		bd := b.data
		if k.a.TransB {
			bd = transposeBytes(&k.bt, b.data, n, kk)
		}
		cl.raw, cl.ldb, cl.mask = bd, n, qMaskB(bS8)
	}
	if kk > 0 {
		k.qg.run(cl)
	} else {
		clear(acc)
	}
	if ct := optIn(in, 6); ct != nil {
		if err := addBiasI32(nd, acc, ct, m, n); err != nil {
			return err
		}
	}
	sb := bs.f32()
	mult := growF32(&k.mult, len(sb))
	for j, s := range sb {
		// As ONNX Runtime: alpha·a_scale·b_scale, then divided by y_scale.
		mult[j] = k.a.Alpha * as * s
		if ys != nil {
			mult[j] /= ysv
		}
	}
	if yz == nil {
		qScaleOut(out[0].f32(), acc, mult, nil, n)
		return nil
	}
	requantize(out[0], acc, mult, n, 1, float64(yzv))
	return nil
}

// addBiasI32 adds the int32 C, of shape (), (1), (N), (1, N), (M, 1) or
// (M, N), to the m×n matrix acc, wrapping as int32.
func addBiasI32(nd *model.Node, acc []int32, ct *tensor, m, n int) error {
	c := ct.i32()
	rs, cs := 0, 0 // C's strides along rows and columns
	switch s := ct.shape; {
	case ct.numel() == 1:
	case len(s) == 1 && s[0] == n, len(s) == 2 && s[0] == 1 && s[1] == n:
		cs = 1
	case len(s) == 2 && s[0] == m && s[1] == 1:
		rs = 1
	case len(s) == 2 && s[0] == m && s[1] == n:
		rs, cs = n, 1
	default:
		return shapeErr(nd, "C of shape %v does not broadcast to [%d %d]", s, m, n)
	}
	for i := range m {
		row := acc[i*n : (i+1)*n]
		for j := range row {
			row[j] += c[i*rs+j*cs]
		}
	}
	return nil
}

// buildQGemm checks QGemm's types and packs a constant 2-D B.
func buildQGemm(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.QGemmAttrs)
	at, bt := c.inType(0), c.inType(3)
	if !(at == payload.Uint8 && q8(bt) || at == payload.Int8 && bt == payload.Int8) {
		return nil, c.unsupported("A of element type %s and B of %s (supported: uint8 A with int8 or uint8 B, int8 A with int8 B)", at, bt)
	}
	if c.inType(2) != at || c.inType(5) != bt {
		return nil, c.invalid("zero points of element types %s and %s for A of %s and B of %s", c.inType(2), c.inType(5), at, bt)
	}
	if err := qFloatScales(c, 1, 4); err != nil {
		return nil, err
	}
	if t := c.inType(6); t != payload.Undefined && t != payload.Int32 {
		return nil, c.invalid("C of element type %s, want int32", t)
	}
	if t := c.inType(7); t != payload.Undefined && t != payload.Float32 {
		return nil, c.unsupported("y_scale of element type %s (supported: float32)", t)
	}
	if t := c.inType(8); t != payload.Undefined && t != at {
		return nil, c.invalid("y_zero_point of element type %s for A of %s", t, at)
	}
	k := &qgemmOpKernel{n: c.n, a: a, qg: newQgemmCtx(c.gemmCtx().pool)}
	if w := c.constInput(3); w != nil && len(w.Shape) == 2 {
		r, cc := w.Shape[0], w.Shape[1]
		k.pk, k.pn = r, cc
		if a.TransB {
			k.pk, k.pn = cc, r
		}
		l := k.qg.kern.l
		pb, err := shareValue(c, "packedQGemmB", func() (qPackedB, error) {
			if len(w.Raw) < r*cc {
				return qPackedB{}, c.invalid("constant B %q of %d bytes for shape %v", w.Name, len(w.Raw), w.Shape)
			}
			src := w.Raw
			if a.TransB {
				var buf []byte
				src = transposeBytes(&buf, w.Raw, r, cc)
			}
			return packQB(l, src, k.pn, k.pk, k.pn, bt == payload.Int8), nil
		})
		if err != nil {
			return nil, err
		}
		k.pb = pb
	}
	return k, nil
}

func init() {
	registerMS("DynamicQuantizeMatMul", func(c *buildCtx) (kernel, error) { return buildQMMFloat(c, true) })
	registerMS("MatMulIntegerToFloat", func(c *buildCtx) (kernel, error) { return buildQMMFloat(c, false) })
	registerMS("QGemm", buildQGemm)
}
