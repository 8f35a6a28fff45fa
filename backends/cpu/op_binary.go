package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// binaryKernel runs Add, Sub, Mul, Div, Mod and Pow with multidirectional
// broadcasting, or before opset 7 the legacy broadcast of B to A; the
// descriptor's rule (model.BinaryAttrs) has set the output's shape.
type binaryKernel struct {
	n  *model.Node
	op binOp
	// dt is the element type of input 0 and the output; et is input 1's
	// (it differs from dt only for Pow).
	dt, et payload.DType
	b      legacyB
	it     bcastIter
}

func (k *binaryKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape, k.b.shape(in[0], in[1]))
	if k.op == opPow {
		switch k.dt {
		case payload.Float32:
			powBaseF(k, out[0].f32(), in[0].f32(), in[1])
		case payload.Float64:
			powBaseF(k, out[0].f64(), in[0].f64(), in[1])
		case payload.Int32:
			powBaseI(k, out[0].i32(), in[0].i32(), in[1])
		case payload.Int64:
			powBaseI(k, out[0].i64(), in[0].i64(), in[1])
		}
		return nil
	}
	switch k.dt {
	case payload.Float32:
		binFloat(k.op, &k.it, out[0].f32(), in[0].f32(), in[1].f32())
	case payload.Float64:
		binFloat(k.op, &k.it, out[0].f64(), in[0].f64(), in[1].f64())
	case payload.Int32:
		binInt(k.op, &k.it, out[0].i32(), in[0].i32(), in[1].i32())
	case payload.Int64:
		binInt(k.op, &k.it, out[0].i64(), in[0].i64(), in[1].i64())
	case payload.Int8:
		binInt(k.op, &k.it, elems[int8](out[0]), elems[int8](in[0]), elems[int8](in[1]))
	case payload.Uint8:
		binInt(k.op, &k.it, out[0].u8(), in[0].u8(), in[1].u8())
	case payload.Int16:
		binInt(k.op, &k.it, elems[int16](out[0]), elems[int16](in[0]), elems[int16](in[1]))
	case payload.Uint16:
		binInt(k.op, &k.it, elems[uint16](out[0]), elems[uint16](in[0]), elems[uint16](in[1]))
	case payload.Uint32:
		binInt(k.op, &k.it, elems[uint32](out[0]), elems[uint32](in[0]), elems[uint32](in[1]))
	case payload.Uint64:
		binInt(k.op, &k.it, elems[uint64](out[0]), elems[uint64](in[0]), elems[uint64](in[1]))
	}
	return nil
}

// binFloat walks a float binary operation row by row.
func binFloat[T ewFloat](op binOp, it *bcastIter, d, a, b []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, ra, rb := d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:]
		switch {
		case op == opFMod:
			floatModRow(row, ra, rb, it.istr[0], it.istr[1])
		case unsafe.Sizeof(row[0]) == 4 && arithRow32(op, f32s(row), f32s(ra), f32s(rb), it.istr[0], it.istr[1]):
		default:
			arithRow(op, row, ra, rb, it.istr[0], it.istr[1])
		}
		it.next()
	}
}

// binInt walks an integer binary operation row by row.
func binInt[T ewInt](op binOp, it *bcastIter, d, a, b []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, ra, rb := d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:]
		switch op {
		case opDiv, opMod, opFMod:
			intDivRow(op, row, ra, rb, it.istr[0], it.istr[1])
		default:
			arithRow(op, row, ra, rb, it.istr[0], it.istr[1])
		}
		it.next()
	}
}

// powBaseF and powBaseI dispatch Pow on the exponent's element type.
func powBaseF[B ewFloat](k *binaryKernel, d, a []B, e *tensor) {
	switch k.et {
	case payload.Float32:
		powWalkF(&k.it, d, a, e.f32())
	case payload.Float64:
		powWalkF(&k.it, d, a, e.f64())
	case payload.Int32:
		powWalkF(&k.it, d, a, e.i32())
	case payload.Int64:
		powWalkF(&k.it, d, a, e.i64())
	case payload.Int8:
		powWalkF(&k.it, d, a, elems[int8](e))
	case payload.Uint8:
		powWalkF(&k.it, d, a, e.u8())
	case payload.Int16:
		powWalkF(&k.it, d, a, elems[int16](e))
	case payload.Uint16:
		powWalkF(&k.it, d, a, elems[uint16](e))
	case payload.Uint32:
		powWalkF(&k.it, d, a, elems[uint32](e))
	case payload.Uint64:
		powWalkF(&k.it, d, a, elems[uint64](e))
	}
}

func powBaseI[B ewInt](k *binaryKernel, d, a []B, e *tensor) {
	switch k.et {
	case payload.Float32:
		powWalkI(&k.it, d, a, e.f32())
	case payload.Float64:
		powWalkI(&k.it, d, a, e.f64())
	case payload.Int32:
		powWalkI(&k.it, d, a, e.i32())
	case payload.Int64:
		powWalkI(&k.it, d, a, e.i64())
	case payload.Int8:
		powWalkI(&k.it, d, a, elems[int8](e))
	case payload.Uint8:
		powWalkI(&k.it, d, a, e.u8())
	case payload.Int16:
		powWalkI(&k.it, d, a, elems[int16](e))
	case payload.Uint16:
		powWalkI(&k.it, d, a, elems[uint16](e))
	case payload.Uint32:
		powWalkI(&k.it, d, a, elems[uint32](e))
	case payload.Uint64:
		powWalkI(&k.it, d, a, elems[uint64](e))
	}
}

// powWalkF and powWalkI walk Pow row by row.
func powWalkF[B ewFloat, E ewNum](it *bcastIter, d, a []B, b []E) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		powRowF(d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:], it.istr[0], it.istr[1])
		it.next()
	}
}

func powWalkI[B ewInt, E ewNum](it *bcastIter, d, a []B, b []E) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		powRowI(d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:], it.istr[0], it.istr[1])
		it.next()
	}
}

// naryKernel runs the variadic Min, Max, Sum and Mean: it broadcasts every
// input onto the output, whose shape the descriptor's rule
// (model.VariadicAttrs) has set, and folds them left to right.
type naryKernel struct {
	n  *model.Node
	op binOp
	dt payload.DType
	// mean divides the sum by the number of inputs.
	mean bool
	it   bcastIter
}

func (k *naryKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		naryRun[float32](k, out[0], in)
	case payload.Float64:
		naryRun[float64](k, out[0], in)
	case payload.Int32:
		naryRun[int32](k, out[0], in)
	case payload.Int64:
		naryRun[int64](k, out[0], in)
	case payload.Int8:
		naryRun[int8](k, out[0], in)
	case payload.Uint8:
		naryRun[uint8](k, out[0], in)
	case payload.Int16:
		naryRun[int16](k, out[0], in)
	case payload.Uint16:
		naryRun[uint16](k, out[0], in)
	case payload.Uint32:
		naryRun[uint32](k, out[0], in)
	case payload.Uint64:
		naryRun[uint64](k, out[0], in)
	}
	return nil
}

// naryRun folds the inputs into out's data.
func naryRun[T ewNum](k *naryKernel, out *tensor, in []*tensor) {
	it := &k.it
	d := elems[T](out)
	it.init(out.shape, in[0].shape)
	copyBroadcast(it, d, elems[T](in[0]))
	for _, t := range in[1:] {
		it.init(out.shape, out.shape, t.shape)
		b := elems[T](t)
		n := it.inner
		for r := 0; r < it.rows; r++ {
			row := d[r*n : (r+1)*n]
			arithRow(k.op, row, row, b[it.off[1]:], 1, it.istr[1])
			it.next()
		}
	}
	if k.mean {
		var z T
		if isFloatVal(z) {
			s := 1 / float64(len(in))
			for i := range d {
				d[i] = T(float64(d[i]) * s)
			}
		}
	}
}

// copyBroadcast copies the single operand of it into the contiguous d.
func copyBroadcast[T any](it *bcastIter, d, s []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, src := d[r*n:(r+1)*n], s[it.off[0]:]
		if it.istr[0] == 1 {
			copy(row, src[:n])
		} else {
			v := src[0]
			for i := range row {
				row[i] = v
			}
		}
		it.next()
	}
}

func init() {
	binary := func(op binOp) builder {
		b := func(c *buildCtx) (kernel, error) { return buildBinary(c, op) }
		if op == opPow {
			return viaF32(b, 1) // the exponent may be any number type
		}
		return viaF32(b)
	}
	register("Add", binary(opAdd))
	register("Sub", binary(opSub))
	register("Mul", binary(opMul))
	register("Div", binary(opDiv))
	register("Pow", binary(opPow))
	register("Mod", viaF32(func(c *buildCtx) (kernel, error) {
		switch {
		case c.rule.(*model.BinaryAttrs).Fmod:
			return buildBinary(c, opFMod)
		case c.inType(0).IsFloat():
			return nil, c.invalid("fmod must be 1 for floating-point inputs")
		}
		return buildBinary(c, opMod)
	}))
	nary := func(op binOp, mean, floatOnly bool) builder {
		return viaF32(func(c *buildCtx) (kernel, error) {
			dt := c.inType(0)
			if floatOnly && !dt.IsFloat() || !hasDType(ewOrdered, dt) {
				return nil, c.unsupported("element type %s", dt)
			}
			for i := 1; i < c.n.NumInputs(); i++ {
				if c.inType(i) != dt {
					return nil, c.invalid("input %d is %s, input 0 is %s", i, c.inType(i), dt)
				}
			}
			return &naryKernel{n: c.n, op: op, dt: dt, mean: mean}, nil
		})
	}
	register("Min", nary(opMin, false, false))
	register("Max", nary(opMax, false, false))
	register("Sum", nary(opAdd, false, false))
	register("Mean", nary(opAdd, true, true))
}

// buildBinary checks a binary node's inputs and returns its kernel.
func buildBinary(c *buildCtx, op binOp) (kernel, error) {
	dt, et := c.inType(0), c.inType(1)
	if op == opPow && !hasDType(ewArith, dt) {
		return nil, c.unsupported("element type %s (supported: %v)", dt, ewArith)
	}
	if !hasDType(ewOrdered, dt) {
		return nil, c.unsupported("element type %s (supported: %v)", dt, ewOrdered)
	}
	if op == opPow {
		if !hasDType(ewOrdered, et) {
			return nil, c.unsupported("exponent element type %s (supported: %v)", et, ewOrdered)
		}
	} else if et != dt {
		return nil, c.invalid("inputs have element types %s and %s", dt, et)
	}
	if len(c.out) > 0 && c.out[0].DType != payload.Undefined && c.out[0].DType != dt {
		return nil, c.invalid("output is %s, input 0 is %s", c.out[0].DType, dt)
	}
	return &binaryKernel{n: c.n, op: op, dt: dt, et: et, b: legacyB{a: c.rule.(*model.BinaryAttrs)}}, nil
}

// legacyB gives the shape that a binary op's B broadcasts from onto A:
// its own, or under the legacy broadcast of opsets before 7 its dims
// placed at the axis in A's and followed by 1s.
type legacyB struct {
	a   *model.BinaryAttrs
	buf []int
}

// shape returns the shape to broadcast b from onto the output, whose
// shape the rule has checked.
func (l *legacyB) shape(a, b *tensor) []int {
	if !l.a.Legacy || !l.a.Broadcast {
		return b.shape
	}
	ax, _ := l.a.LegacyAxis(len(a.shape), len(b.shape))
	d := growInts(&l.buf, len(a.shape)-ax)
	for i := range d {
		d[i] = 1
	}
	copy(d, b.shape)
	return d
}
