package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// QLinearAdd and QLinearMul of ONNX Runtime's contrib domain, computed
// as its x86 kernels (MLAS's qladd and qlmul) compute them on a CPU with
// AVX2, so that the integer outputs are equal:
//
//   - Add: with ratios rA = A_scale/C_scale and rB = B_scale/C_scale in
//     float32, the fixed part F = C_zero_point - (rA·A_zero_point +
//     rB·B_zero_point); a row where both operands vary gives
//     fma(a, rA, fma(b, rB, F)), one where B is one value for the row
//     fma(a, rA, F + b·rB) (and the mirror when A is), each fma rounded
//     once to float32;
//   - Mul: (a - A_zero_point)·(b - B_zero_point) exactly in int32, to
//     float32, times A_scale·B_scale/C_scale, plus C_zero_point;
//
// then rounded half to even (out of int32's range or NaN: its minimum,
// as CVTPS2DQ) and saturated through int16 to the 8-bit type. ONNX
// Runtime's ARM kernels use a fixed-point form for Add and may differ by
// one in rare cases.

// qScalarShape reports whether shape is a scalar or a 1-D tensor of one
// element, the only shapes ONNX Runtime takes for a per-tensor scale or
// zero point.
func qScalarShape(shape []int) bool {
	return len(shape) == 0 || len(shape) == 1 && shape[0] == 1
}

// qScale reads a per-tensor float32 scale.
func qScale(nd *model.Node, t *tensor, what string) (float32, error) {
	if !qScalarShape(t.shape) {
		return 0, shapeErr(nd, "%s of shape %v: want a scalar", what, t.shape)
	}
	return t.f32()[0], nil
}

// qZero reads a per-tensor 8-bit zero point (nil: 0).
func qZero(nd *model.Node, t *tensor, what string) (int32, error) {
	if t == nil {
		return 0, nil
	}
	if !qScalarShape(t.shape) {
		return 0, shapeErr(nd, "%s of shape %v: want a scalar", what, t.shape)
	}
	return q8At(t.dt, t.data, 0), nil
}

// q8At is element i of 8-bit data of type dt (int8 or uint8).
func q8At(dt payload.DType, data []byte, i int) int32 {
	if dt == payload.Int8 {
		return int32(int8(data[i]))
	}
	return int32(data[i])
}

// cvtps rounds x half to even to an int32 as CVTPS2DQ does: NaN and
// values out of range give math.MinInt32.
func cvtps(x float32) int32 {
	r := math.RoundToEven(float64(x))
	if !(r >= math.MinInt32 && r <= math.MaxInt32) {
		return math.MinInt32
	}
	return int32(r)
}

// sat8 saturates v to int8 (s8) or uint8 as the packing instructions do,
// returning the byte.
func sat8(v int32, s8 bool) byte {
	if s8 {
		return byte(int8(min(max(v, math.MinInt8), math.MaxInt8)))
	}
	return byte(min(max(v, 0), math.MaxUint8))
}

// qlinearBinKernel runs QLinearAdd and QLinearMul on int8 or uint8.
type qlinearBinKernel struct {
	n   *model.Node
	mul bool
	it  bcastIter
}

func (k *qlinearBinKernel) run(in, out []*tensor) error {
	a, b, y := in[0], in[3], out[0]
	sa, err := qScale(k.n, in[1], "A_scale")
	if err != nil {
		return err
	}
	sb, err := qScale(k.n, in[4], "B_scale")
	if err != nil {
		return err
	}
	sc, err := qScale(k.n, in[6], "C_scale")
	if err != nil {
		return err
	}
	za, err := qZero(k.n, optIn(in, 2), "A_zero_point")
	if err != nil {
		return err
	}
	zb, err := qZero(k.n, optIn(in, 5), "B_zero_point")
	if err != nil {
		return err
	}
	zc, err := qZero(k.n, optIn(in, 7), "C_zero_point")
	if err != nil {
		return err
	}
	s8 := y.dt == payload.Int8
	k.it.init(y.shape, a.shape, b.shape)
	n := k.it.inner
	d := y.data
	for r := 0; r < k.it.rows; r++ {
		row, ra, rb := d[r*n:(r+1)*n], a.data[k.it.off[0]:], b.data[k.it.off[1]:]
		aOne, bOne := k.it.istr[0] == 0, k.it.istr[1] == 0
		if k.mul {
			qmulRow(row, ra, rb, aOne, bOne, s8, za, zb, sa*sb/sc, float32(zc))
		} else {
			qaddRow(row, ra, rb, aOne, bOne, s8, sa/sc, float32(za), sb/sc, float32(zb), float32(zc))
		}
		k.it.next()
	}
	return nil
}

// q8f is the 8-bit value v (int8 when s8) as float32.
func q8f(v byte, s8 bool) float32 {
	if s8 {
		return float32(int8(v))
	}
	return float32(v)
}

// qaddRow writes one output row of QLinearAdd: a and b hold the row's
// operands, or one value each when aOne or bOne.
func qaddRow(y, a, b []byte, aOne, bOne, s8 bool, ra, za, rb, zb, zc float32) {
	switch {
	case aOne:
		// ONNX Runtime passes the varying operand first: B here.
		f := zc - (rb*zb + ra*za)
		f += q8f(a[0], s8) * ra
		if bOne {
			v := sat8(cvtps(fma32(q8f(b[0], s8), rb, f)), s8)
			for i := range y {
				y[i] = v
			}
			return
		}
		for i := range y {
			y[i] = sat8(cvtps(fma32(q8f(b[i], s8), rb, f)), s8)
		}
	case bOne:
		f := zc - (ra*za + rb*zb)
		f += q8f(b[0], s8) * rb
		for i := range y {
			y[i] = sat8(cvtps(fma32(q8f(a[i], s8), ra, f)), s8)
		}
	default:
		f := zc - (ra*za + rb*zb)
		for i := range y {
			y[i] = sat8(cvtps(fma32(q8f(a[i], s8), ra, fma32(q8f(b[i], s8), rb, f))), s8)
		}
	}
}

// qmulRow writes one output row of QLinearMul, as qaddRow.
func qmulRow(y, a, b []byte, aOne, bOne, s8 bool, za, zb int32, ratio, zc float32) {
	at := func(x []byte, i int) int32 {
		if s8 {
			return int32(int8(x[i]))
		}
		return int32(x[i])
	}
	sa, sb := 1, 1
	if aOne {
		sa = 0
	}
	if bOne {
		sb = 0
	}
	for i := range y {
		p := (at(a, i*sa) - za) * (at(b, i*sb) - zb)
		y[i] = sat8(cvtps(float32(p)*ratio+zc), s8)
	}
}

// buildQLinearBin checks QLinearAdd's or QLinearMul's types.
func buildQLinearBin(c *buildCtx, mul bool) (kernel, error) {
	if err := qRequired(c, 3, 4, 6); err != nil {
		return nil, err
	}
	dt := c.inType(0)
	if !q8(dt) {
		return nil, c.unsupported("A of element type %s (supported: int8, uint8)", dt)
	}
	if c.inType(3) != dt {
		return nil, c.invalid("B of element type %s for A of %s", c.inType(3), dt)
	}
	for _, i := range []int{2, 5, 7} {
		if t := c.inType(i); t != payload.Undefined && t != dt {
			return nil, c.invalid("%s of element type %s for A of %s", c.op.InputNames[i], t, dt)
		}
	}
	if err := qFloatScales(c, 1, 4, 6); err != nil {
		return nil, err
	}
	return &qlinearBinKernel{n: c.n, mul: mul}, nil
}

// qRequired refuses the node unless inputs idx are present: the inputs
// the op requires after an optional one, which the descriptor's arity
// cannot require.
func qRequired(c *buildCtx, idx ...int) error {
	for _, i := range idx {
		if c.inType(i) == payload.Undefined {
			return c.invalid("required input %d (%s) is missing", i, c.op.InputNames[i])
		}
	}
	return nil
}

// qFloatScales refuses the node unless inputs idx are float32 scales, the
// only type ONNX Runtime's contrib quantized kernels read.
func qFloatScales(c *buildCtx, idx ...int) error {
	for _, i := range idx {
		if t := c.inType(i); t != payload.Float32 {
			return c.unsupported("%s of element type %s (supported: float32)", c.op.InputNames[i], t)
		}
	}
	return nil
}

func init() {
	registerMS("QLinearAdd", func(c *buildCtx) (kernel, error) { return buildQLinearBin(c, false) })
	registerMS("QLinearMul", func(c *buildCtx) (kernel, error) { return buildQLinearBin(c, true) })
}
