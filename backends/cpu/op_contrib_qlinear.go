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
//
// Where the CPU has AVX2 with FMA, rows run through vector kernels
// (qlinbin_amd64.s) that do the same arithmetic 32 outputs at a time,
// the scalar functions below taking the rest of a row. Elsewhere, as the
// output depends on the two 8-bit values alone, large tensors go through
// a table of all 2¹⁶ pairs, built from the same functions and kept while
// the scales and zero points stay the same, and long rows of a one-value
// operand through a table of 256.

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

// qlinearBinKernel runs QLinearAdd and QLinearMul on int8 or uint8.
type qlinearBinKernel struct {
	n   *model.Node
	mul bool
	it  bcastIter
	// pa and pb hold each 8-bit value times A's and B's ratio (Add), or
	// less its zero point (Mul), exact in float64, for the parameters
	// key; lut, once built for them, the output of every pair of values
	// (A's the high byte) where both vary along a row.
	pa, pb [256]float64
	key    [7]uint32
	haveP  bool
	lut    *[1 << 16]byte
	row    [256]byte
}

// qLUTMin is the fewest output elements for which QLinearAdd and
// QLinearMul build their table of 2¹⁶ pairs where the row kernels do not
// run (kept while the scales and
// zero points stay the same), and qRowLUTMin the shortest row on which a
// one-value operand gets a table of 256.
const (
	qLUTMin    = 1 << 14
	qRowLUTMin = 512
)

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
	if y.numel() == 0 {
		return nil
	}
	s8 := y.dt == payload.Int8
	q := qRounder{lo: 0, hi: math.MaxUint8}
	if s8 {
		q = qRounder{lo: math.MinInt8, hi: math.MaxInt8}
	}
	ra, rb := sa/sc, sb/sc
	if k.mul {
		ra = sa * sb / sc
	}
	b2u := func(b bool) uint32 {
		if b {
			return 1
		}
		return 0
	}
	key := [7]uint32{math.Float32bits(sa), math.Float32bits(sb), math.Float32bits(sc), uint32(za), uint32(zb), uint32(zc), b2u(s8)}
	if !k.haveP || key != k.key {
		for v := range 256 {
			x := float64(v)
			if s8 {
				x = float64(int8(v))
			}
			if k.mul {
				k.pa[v], k.pb[v] = x-float64(za), x-float64(zb)
			} else {
				k.pa[v], k.pb[v] = x*float64(ra), x*float64(rb)
			}
		}
		k.key, k.haveP = key, true
		k.lut = nil
	}
	fz := float64(qaddFixed(float32(zc), ra, float32(za), rb, float32(zb)))
	if !hasQLinBin && k.lut == nil && y.numel() >= qLUTMin && a.numel() > 1 && b.numel() > 1 {
		k.lut = new([1 << 16]byte)
		for x := range 256 {
			for w := range 256 {
				if k.mul {
					k.lut[x<<8|w] = qmulOne(k.pa[x]*k.pb[w], ra, float32(zc), q)
				} else {
					k.lut[x<<8|w] = qaddBoth(k.pa[x], k.pb[w], fz, q)
				}
			}
		}
	}
	k.it.init(y.shape, a.shape, b.shape)
	n := k.it.inner
	d := y.data
	for r := 0; r < k.it.rows; r++ {
		row, xa, xb := d[r*n:(r+1)*n], a.data[k.it.off[0]:], b.data[k.it.off[1]:]
		aOne, bOne := k.it.istr[0] == 0, k.it.istr[1] == 0
		if k.mul {
			k.mulRow(row, xa, xb, aOne, bOne, za, zb, ra, float32(zc), q)
		} else {
			k.addRow(row, xa, xb, aOne, bOne, ra, float32(za), rb, float32(zb), float32(zc), q)
		}
		k.it.next()
	}
	return nil
}

// qRounder rounds a float32 half to even and saturates it to [lo, hi] as
// CVTPS2DQ and the saturating packs do: NaN and values of 2³¹ or more
// become lo (CVTPS2DQ's "integer indefinite", the most negative int32).
type qRounder struct{ lo, hi float32 }

// round returns v rounded and saturated, as the output byte.
func (q qRounder) round(v float32) byte {
	switch {
	case !(v >= q.lo) || v >= 1<<31:
		v = q.lo
	case v > q.hi:
		v = q.hi
	}
	// Within ±2²² adding and taking away 1.5·2²³ rounds half to even.
	const magic = 0x1.8p23
	return byte(int32(float32(v+magic) - magic))
}

// qaddFixed is QLinearAdd's fixed part zc − (r1·z1 + r2·z2) for the
// kernel's first and second operands, as ONNX Runtime's compiled AVX2
// kernel computes it: the compiler contracts the sum of products into
// one fused multiply-add of the first product onto the rounded second
// (seen as a one-step difference on rare ties before it was matched).
func qaddFixed(zc, r1, z1, r2, z2 float32) float32 {
	return zc - fma32(r1, z1, float32(r2*z2))
}

// qaddBoth is QLinearAdd's output where both operands vary: pa and pb
// are their products with their ratios, fz the fixed part. The products
// are exact in float64, so addRound32 gives the fused multiply-adds'
// results, each rounded once to float32.
func qaddBoth(pa, pb, fz float64, q qRounder) byte {
	t := addRound32(pb, fz)
	return q.round(addRound32(pa, float64(t)))
}

// addRound32 returns p + c rounded once to float32, as a float32 fused
// multiply-add whose product is p rounds it. The float64 sum is made
// round-to-odd (TwoSum gives its exact error; an inexact even result
// moves one ulp towards the exact sum), so that the conversion to
// float32 cannot round twice: float32(p + c) alone differs when c is
// more than 2²¹ times p or the other way round and the float64 sum
// falls on a float32 tie.
func addRound32(p, c float64) float32 {
	s := p + c
	bb := s - p
	if e := (p - (s - bb)) + (c - bb); e != 0 {
		if b := math.Float64bits(s); b&1 == 0 {
			if (e > 0) == (s > 0) {
				b++
			} else {
				b--
			}
			s = math.Float64frombits(b)
		}
	}
	return float32(s)
}

// qmulOne is QLinearMul's output for the exact product p of the operands
// less their zero points; the explicit conversion keeps the compiler from
// fusing the multiply with the add.
func qmulOne(p float64, ratio, zc float32, q qRounder) byte {
	return q.round(float32(float32(p)*ratio) + zc)
}

// addRow writes one output row of QLinearAdd: xa and xb hold the row's
// operands, or one value each when aOne or bOne. One operand of one
// value joins the fixed part first, as in ONNX Runtime's kernel, which
// rounds differently from a row where both vary.
func (k *qlinearBinKernel) addRow(y, xa, xb []byte, aOne, bOne bool, ra, za, rb, zb, zc float32, q qRounder) {
	pa, pb := &k.pa, &k.pb
	switch {
	case aOne:
		// ONNX Runtime passes the varying operand first: B here.
		f := addRound32(pa[xa[0]], float64(qaddFixed(zc, rb, zb, ra, za)))
		if bOne {
			v := q.round(float32(pb[xb[0]] + float64(f)))
			for i := range y {
				y[i] = v
			}
			return
		}
		n := qAdd1Rows(y, xb, rb, f, q.lo < 0)
		k.oneRow(y[n:], xb[n:], pb, float64(f), q)
	case bOne:
		f := addRound32(pb[xb[0]], float64(qaddFixed(zc, ra, za, rb, zb)))
		n := qAdd1Rows(y, xa, ra, f, q.lo < 0)
		k.oneRow(y[n:], xa[n:], pa, float64(f), q)
	default:
		xa, xb = xa[:len(y)], xb[:len(y)]
		f32 := qaddFixed(zc, ra, za, rb, zb)
		n := qAdd2Rows(y, xa, xb, ra, rb, f32, q.lo < 0)
		y, xa, xb = y[n:], xa[n:], xb[n:]
		if lut := k.lut; lut != nil {
			pairLUT(lut, y, xa, xb)
			return
		}
		f := float64(f32)
		for i, a := range xa {
			y[i] = qaddBoth(pa[a], pb[xb[i]], f, q)
		}
	}
}

// pairLUT writes y[i] = lut[xa[i]<<8 | xb[i]]. (Unrolling it by four
// measured slower.)
func pairLUT(lut *[1 << 16]byte, y, xa, xb []byte) {
	xa, xb = xa[:len(y)], xb[:len(y)]
	for i, a := range xa {
		y[i] = lut[uint16(a)<<8|uint16(xb[i])]
	}
}

// oneRow writes the row of QLinearAdd where x varies and the other
// operand is in f: round(p[x] + f), through a table of 256 on long rows.
func (k *qlinearBinKernel) oneRow(y, x []byte, p *[256]float64, f float64, q qRounder) {
	x = x[:len(y)]
	if len(y) >= qRowLUTMin {
		t := &k.row
		for v := range t {
			t[v] = q.round(addRound32(p[v], f))
		}
		(*qTable)(t).apply(y, x)
		return
	}
	for i, v := range x {
		y[i] = q.round(addRound32(p[v], f))
	}
}

// mulRow writes one output row of QLinearMul, as addRow: the product of
// the operands less their zero points za and zb, exact, times ratio, plus
// zc, each step rounded to float32.
func (k *qlinearBinKernel) mulRow(y, xa, xb []byte, aOne, bOne bool, za, zb int32, ratio, zc float32, q qRounder) {
	pa, pb := &k.pa, &k.pb
	switch {
	case aOne && bOne:
		v := qmulOne(pa[xa[0]]*pb[xb[0]], ratio, zc, q)
		for i := range y {
			y[i] = v
		}
	case aOne, bOne:
		var c float64
		var x []byte
		var p *[256]float64
		var z int32
		if bOne {
			c, x, p, z = pb[xb[0]], xa[:len(y)], pa, za
		} else {
			c, x, p, z = pa[xa[0]], xb[:len(y)], pb, zb
		}
		n := qMul1Rows(y, x, z, int32(c), ratio, zc, q.lo < 0)
		y, x = y[n:], x[n:]
		if len(y) >= qRowLUTMin {
			t := &k.row
			for v := range t {
				t[v] = qmulOne(p[v]*c, ratio, zc, q)
			}
			(*qTable)(t).apply(y, x)
			return
		}
		for i, v := range x {
			y[i] = qmulOne(p[v]*c, ratio, zc, q)
		}
	default:
		xa, xb = xa[:len(y)], xb[:len(y)]
		n := qMul2Rows(y, xa, xb, za, zb, ratio, zc, q.lo < 0)
		y, xa, xb = y[n:], xa[n:], xb[n:]
		if lut := k.lut; lut != nil {
			pairLUT(lut, y, xa, xb)
			return
		}
		for i, a := range xa {
			y[i] = qmulOne(pa[a]*pb[xb[i]], ratio, zc, q)
		}
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
