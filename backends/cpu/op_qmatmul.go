package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// MatMulInteger and QLinearMatMul: the 8-bit operands, less their zero
// points, are widened to int32 and multiplied exactly with int32
// accumulation by MatMul's planning and int32 GEMM; QLinearMatMul then
// requantizes the products.

// readQ8 widens the int8 or uint8 elements of t into dst.
func readQ8(dst []int32, t *tensor) {
	if t.dt == payload.Int8 {
		for i, v := range elems[int8](t)[:len(dst)] {
			dst[i] = int32(v)
		}
		return
	}
	for i, v := range t.data[:len(dst)] {
		dst[i] = int32(v)
	}
}

// q8 reports whether dt is int8 or uint8.
func q8(dt payload.DType) bool { return dt == payload.Int8 || dt == payload.Uint8 }

// growI32 returns n int32s from *buf, grown only when too small.
func growI32(buf *[]int32, n int) []int32 {
	if cap(*buf) < n {
		*buf = make([]int32, n, n+4)
	}
	return (*buf)[:n]
}

// zeroPoints reads a zero point input (nil: none) of one value or of n
// (one per row or column) into buf; it returns nil for no zero point.
func zeroPoints(nd *model.Node, t *tensor, n int, what string, buf *[]int32) ([]int32, error) {
	if t == nil {
		return nil, nil
	}
	c := t.numel()
	if c != 1 && c != n {
		return nil, shapeErr(nd, "%s of shape %v: want one value or %d", what, t.shape, n)
	}
	z := growI32(buf, c)
	readQ8(z, t)
	return z, nil
}

// qmatmulKernel runs MatMulInteger (qlinear false) and QLinearMatMul on
// the int8 GEMM (qgemm.go), B prepacked at build when it is a constant
// matrix.
type qmatmulKernel struct {
	mm matmulKernel // plans the product; its n names the node
	// ia and ib are the inputs A and B; each one's zero point is the
	// input two places on.
	ia, ib  int
	qlinear bool
	pair    [2]*tensor
	qg      *qgemmCtx
	// pb is B packed at build (pk×pn), or has no data.
	pb     qPackedB
	pk, pn int
	// Scratch: packed A and its row sums, the zero points and their
	// shifted forms, the int32 products of QLinearMatMul, its per-column
	// multipliers and scales.
	pa                            []byte
	rowSum, za, zb, zae, zbe, acc []int32
	mult                          []float32
	sc                            []float64
	// colMult and colBias are requant's multiplier and bias of each
	// column (zeros without a bias).
	colMult []float32
	colBias []int32
}

// buildQMatMul returns the kernel of MatMulInteger or QLinearMatMul with
// A and B the inputs ia and ib.
func buildQMatMul(c *buildCtx, ia, ib int, qlinear bool) (kernel, error) {
	k := &qmatmulKernel{mm: matmulKernel{n: c.n, dt: payload.Int32}, ia: ia, ib: ib, qlinear: qlinear, qg: newQgemmCtx(c.gemmCtx().pool)}
	if w := c.constInput(ib); w != nil && len(w.Shape) == 2 && q8(w.DType) {
		k.pk, k.pn = w.Shape[0], w.Shape[1]
		l := k.qg.kern.l
		pb, err := shareValue(c, "packedQB", func() (qPackedB, error) {
			if len(w.Raw) < k.pk*k.pn {
				return qPackedB{}, c.invalid("constant B %q of %d bytes for shape %v", w.Name, len(w.Raw), w.Shape)
			}
			return packQB(l, w.Raw, k.pn, k.pk, k.pn, w.DType == payload.Int8), nil
		})
		if err != nil {
			return nil, err
		}
		k.pb = pb
	}
	return k, nil
}

func (k *qmatmulKernel) shape(in, out []*tensor) error {
	k.pair[0], k.pair[1] = in[k.ia], in[k.ib]
	return k.mm.shape(k.pair[:], out)
}

func (k *qmatmulKernel) run(in, out []*tensor) error {
	a, b := in[k.ia], in[k.ib]
	m, n := k.mm.m, k.mm.nn
	za, err := zeroPoints(k.mm.n, optIn(in, k.ia+2), m, "A's zero point", &k.za)
	if err != nil {
		return err
	}
	zb, err := zeroPoints(k.mm.n, optIn(in, k.ib+2), n, "B's zero point", &k.zb)
	if err != nil {
		return err
	}
	y := out[0].i32()
	if k.qlinear {
		y = growI32(&k.acc, out[0].numel())
	}
	k.product(a, b, za, zb, y, nil)
	if !k.qlinear {
		return nil
	}
	return k.requant(in, out[0], y, n)
}

// product writes into y the int32 products of every batch of a - za and
// b - zb (zero points of one value, or one per row of A or column of B;
// nil: 0), as planned by shape; with scale, their float32 values
// (qFloatScale) in the same bytes.
func (k *qmatmulKernel) product(a, b *tensor, za, zb, y []int32, scale *qFloatScale) {
	m, n, kk := k.mm.m, k.mm.nn, k.mm.k
	aU8, bS8 := a.dt == payload.Uint8, b.dt == payload.Int8
	zae := shiftedZeros(&k.zae, za, qShiftA(aU8))
	zbe := shiftedZeros(&k.zbe, zb, qShiftB(bS8))
	l := k.qg.kern.l
	if k.mm.fold {
		rows := k.mm.nb * m
		cl := qgemmCall{m: rows, n: n, k: kk, a: k.packA(l, a.data, rows, kk, aU8), za: zae, zb: zbe, c: y, ldc: n, scale: scale}
		if k.pb.data != nil && k.pk == kk && k.pn == n {
			cl.b = k.pb
		} else {
			cl.raw, cl.ldb, cl.mask = b.data, n, qMaskB(bS8)
		}
		k.qg.run(cl)
	} else {
		for bi := range k.mm.nb {
			offA, offB := k.mm.offsets(bi)
			k.qg.run(qgemmCall{m: m, n: n, k: kk, a: k.packA(l, a.data[offA:], m, kk, aU8), za: zae, zb: zbe,
				raw: b.data[offB:], ldb: n, mask: qMaskB(bS8), c: y[bi*m*n:], ldc: n, scale: scale})
		}
	}
}

// packA packs the rows×kk matrix src as the GEMM's A into the scratch.
func (k *qmatmulKernel) packA(l qLayout, src []byte, rows, kk int, u8 bool) qPackedA {
	lda := l.aStride(kk)
	pa := growBytes(&k.pa, roundUp(rows, qMR)*lda)
	rs := growI32(&k.rowSum, rows)
	packQA(l, pa, src, kk, rows, kk, u8, rs)
	return qPackedA{data: pa, lda: lda, rowSum: rs}
}

// shiftedZeros returns in *buf the zero points z (nil: one zero) plus
// shift.
func shiftedZeros(buf *[]int32, z []int32, shift int32) []int32 {
	out := growI32(buf, max(len(z), 1))
	if z == nil {
		out[0] = shift
		return out
	}
	for i, v := range z {
		out[i] = v + shift
	}
	return out
}

// growBytes returns n bytes from *buf, grown only when too small.
func growBytes(buf *[]byte, n int) []byte {
	if cap(*buf) < n {
		*buf = make([]byte, n, n+64)
	}
	return (*buf)[:n]
}

// requant writes QLinearMatMul's output from the int32 products acc, n
// columns a row: acc * (a_scale * b_scale / y_scale), in float32 as ONNX
// Runtime's requantization computes it, rounded half to even, plus
// y_zero_point, saturated.
func (k *qmatmulKernel) requant(in []*tensor, y *tensor, acc []int32, n int) error {
	sa, sb, sy, zy := in[1], in[4], in[6], in[7]
	if sa.numel() != 1 || sy.numel() != 1 || zy.numel() != 1 {
		return shapeErr(k.mm.n, "a_scale %v, y_scale %v and y_zero_point %v: want one value each", sa.shape, sy.shape, zy.shape)
	}
	if c := sb.numel(); c != 1 && c != n {
		return shapeErr(k.mm.n, "b_scale of shape %v: want one value or %d", sb.shape, n)
	}
	b := optIn(in, 8)
	if b != nil && (b.dt != payload.Int32 || b.numel() != n) {
		// FuseQDQ's Gemm bias, one int32 per column.
		return shapeErr(k.mm.n, "bias %s of shape %v: want %d int32 values", b.dt, b.shape, n)
	}
	mult := requantScales(&k.mult, &k.sc, sa, sb, sy)
	var z [1]int32
	readQ8(z[:], zy)
	if n > 0 && finiteAll(mult) {
		// Row by row, a multiplier and a bias a column.
		cm := growF32(&k.colMult, n)
		for j := range cm {
			cm[j] = mult[min(j, len(mult)-1)]
		}
		cb := growI32(&k.colBias, n)
		if b != nil {
			copy(cb, b.i32())
		} else {
			clear(cb)
		}
		lo, hi, _ := quantRange(y.dt)
		for r := 0; r+n <= len(acc); r += n {
			requantCols(y.data[r:r+n], acc[r:r+n], cb, cm, float64(z[0]), lo, hi)
		}
		return nil
	}
	if b != nil {
		addColumns(acc, b.i32(), n)
	}
	requantize(y, acc, mult, n, 1, float64(z[0]))
	return nil
}

// addColumns adds bias, n values, to each row of n values of acc.
func addColumns(acc, bias []int32, n int) {
	bias = bias[:n]
	for r := 0; r+n <= len(acc); r += n {
		row := acc[r : r+n]
		for j, v := range bias {
			row[j] += v
		}
	}
}

// requantScales returns in *mult the multipliers x_scale * w_scale[i] /
// y_scale, in float32, in the order ONNX Runtime computes them.
func requantScales(mult *[]float32, sc *[]float64, sx, sw, sy *tensor) []float32 {
	nw := sw.numel()
	s := growF64(sc, nw+2)
	readFloats(s[:1], sx)
	readFloats(s[1:2], sy)
	readFloats(s[2:], sw)
	out := (*mult)[:0]
	if cap(out) < nw {
		out = make([]float32, 0, nw+4)
	}
	x, yv := float32(s[0]), float32(s[1])
	for _, w := range s[2:] {
		out = append(out, x*float32(w)/yv)
	}
	*mult = out
	return out
}

// requantize writes y, int8 or uint8, from the int32 values acc: value i
// uses multiplier mult[(i/inner)%len(mult)] (one multiplier: all), in
// runs of inner values that share one.
func requantize(y *tensor, acc []int32, mult []float32, period, inner int, zp float64) {
	lo, hi, _ := quantRange(y.dt)
	if len(mult) == 1 {
		inner = len(acc)
	}
	inner = max(inner, 1)
	for i0, blk := 0, 0; i0 < len(acc); i0, blk = i0+inner, blk+1 {
		i1 := min(i0+inner, len(acc))
		m := mult[0]
		if len(mult) > 1 {
			m = mult[blk%period]
		}
		requantRun(y.data[i0:i1], acc[i0:i1], m, zp, lo, hi)
	}
}

// requantRunGo writes dst[i] = acc[i]·m, in float32, rounded half to
// even, plus zp, saturated to [lo, hi], as a byte (the int8 or uint8
// value); a NaN product gives zp. It is requantRun's twin.
func requantRunGo(dst []byte, acc []int32, m float32, zp, lo, hi float64) {
	dst = dst[:len(acc)]
	for i, v := range acc {
		dst[i] = byte(int32(roundClamp(float64(float32(v)*m), zp, lo, hi)))
	}
}

func init() {
	register("MatMulInteger", func(c *buildCtx) (kernel, error) {
		if !q8(c.inType(0)) || !q8(c.inType(1)) {
			return nil, c.unsupported("operands of element types %s and %s (supported: int8, uint8)", c.inType(0), c.inType(1))
		}
		for i := 2; i < 4; i++ {
			if t := c.inType(i); t != payload.Undefined && t != c.inType(i-2) {
				return nil, c.invalid("zero point %d of type %s for an operand of type %s", i-2, t, c.inType(i-2))
			}
		}
		return buildQMatMul(c, 0, 1, false)
	})
	register("QLinearMatMul", func(c *buildCtx) (kernel, error) {
		if err := qlinearTypes(c, 0, 3, 7); err != nil {
			return nil, err
		}
		if t := c.inType(8); t != payload.Undefined && t != payload.Int32 {
			return nil, c.invalid("bias of element type %s (want int32)", t)
		}
		return buildQMatMul(c, 0, 3, true)
	})
}

// qlinearTypes checks a QLinear op's types: 8-bit x (input xi), w (wi)
// and y_zero_point (zi), each zero point of its operand's type, and
// float32, float16 or bfloat16 scales.
func qlinearTypes(c *buildCtx, xi, wi, zi int) error {
	for _, i := range []int{xi, wi, zi} {
		if !q8(c.inType(i)) {
			return c.unsupported("%s of element type %s (supported: int8, uint8)", c.op.InputNames[i], c.inType(i))
		}
	}
	for _, i := range []int{xi + 2, wi + 2} {
		if c.inType(i) != c.inType(i-2) {
			return c.invalid("%s of element type %s for %s of %s", c.op.InputNames[i], c.inType(i), c.op.InputNames[i-2], c.inType(i-2))
		}
	}
	for _, i := range []int{xi + 1, wi + 1, zi - 1} {
		if !quantFloat(c.inType(i)) {
			return c.unsupported("%s of element type %s", c.op.InputNames[i], c.inType(i))
		}
	}
	return nil
}
