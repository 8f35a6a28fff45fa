package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// cmpOp names a comparison or a boolean operation.
type cmpOp uint8

const (
	cmpEq cmpOp = iota
	cmpLt
	cmpGt
	cmpLe
	cmpGe
	cmpAnd
	cmpOr
	cmpXor
)

// compareKernel runs the comparisons (Equal, Less, Greater, LessOrEqual,
// GreaterOrEqual) and the boolean And, Or, Xor with broadcasting, or
// before opset 7 the legacy broadcast of B to A; the output is bool, its
// shape set by the descriptor's rule (model.BinaryAttrs).
type compareKernel struct {
	n  *model.Node
	op cmpOp
	dt payload.DType
	b  legacyB
	it bcastIter
}

func (k *compareKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape, k.b.shape(in[0], in[1]))
	d := out[0].bools()
	switch k.dt {
	case payload.Float32:
		cmpWalk(k.op, &k.it, d, in[0].f32(), in[1].f32())
	case payload.Float64:
		cmpWalk(k.op, &k.it, d, in[0].f64(), in[1].f64())
	case payload.Int32:
		cmpWalk(k.op, &k.it, d, in[0].i32(), in[1].i32())
	case payload.Int64:
		cmpWalk(k.op, &k.it, d, in[0].i64(), in[1].i64())
	case payload.Int8:
		cmpWalk(k.op, &k.it, d, elems[int8](in[0]), elems[int8](in[1]))
	case payload.Uint8:
		cmpWalk(k.op, &k.it, d, in[0].u8(), in[1].u8())
	case payload.Int16:
		cmpWalk(k.op, &k.it, d, elems[int16](in[0]), elems[int16](in[1]))
	case payload.Uint16:
		cmpWalk(k.op, &k.it, d, elems[uint16](in[0]), elems[uint16](in[1]))
	case payload.Uint32:
		cmpWalk(k.op, &k.it, d, elems[uint32](in[0]), elems[uint32](in[1]))
	case payload.Uint64:
		cmpWalk(k.op, &k.it, d, elems[uint64](in[0]), elems[uint64](in[1]))
	case payload.Bool:
		boolWalk(k.op, &k.it, d, in[0].bools(), in[1].bools())
	}
	return nil
}

// cmpWalk compares a and b row by row into d.
func cmpWalk[T ewNum](op cmpOp, it *bcastIter, d []bool, a, b []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		cmpRow(op, d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:], it.istr[0], it.istr[1])
		it.next()
	}
}

func cmpRow[T ewNum](op cmpOp, d []bool, a, b []T, sa, sb int) {
	switch op {
	case cmpEq:
		for i := range d {
			d[i] = a[i*sa] == b[i*sb]
		}
	case cmpLt:
		for i := range d {
			d[i] = a[i*sa] < b[i*sb]
		}
	case cmpGt:
		for i := range d {
			d[i] = a[i*sa] > b[i*sb]
		}
	case cmpLe:
		for i := range d {
			d[i] = a[i*sa] <= b[i*sb]
		}
	case cmpGe:
		for i := range d {
			d[i] = a[i*sa] >= b[i*sb]
		}
	}
}

// boolWalk runs Equal, And, Or and Xor on bools row by row.
func boolWalk(op cmpOp, it *bcastIter, d, a, b []bool) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, ra, rb := d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:]
		sa, sb := it.istr[0], it.istr[1]
		switch op {
		case cmpEq:
			for i := range row {
				row[i] = ra[i*sa] == rb[i*sb]
			}
		case cmpAnd:
			for i := range row {
				row[i] = ra[i*sa] && rb[i*sb]
			}
		case cmpOr:
			for i := range row {
				row[i] = ra[i*sa] || rb[i*sb]
			}
		case cmpXor:
			for i := range row {
				row[i] = ra[i*sa] != rb[i*sb]
			}
		}
		it.next()
	}
}

func init() {
	cmp := func(op cmpOp) builder {
		return viaF32(func(c *buildCtx) (kernel, error) {
			dt := c.inType(0)
			switch {
			case dt == payload.String && op == cmpEq:
				return newStringEqual(c)
			case op >= cmpAnd:
				if dt != payload.Bool {
					return nil, c.unsupported("element type %s (want bool)", dt)
				}
			case dt == payload.Bool:
				if op != cmpEq {
					return nil, c.unsupported("element type bool")
				}
			case !hasDType(ewOrdered, dt):
				return nil, c.unsupported("element type %s", dt)
			}
			if c.inType(1) != dt {
				return nil, c.invalid("inputs have element types %s and %s", dt, c.inType(1))
			}
			return &compareKernel{n: c.n, op: op, dt: dt, b: legacyB{a: c.rule.(*model.BinaryAttrs)}}, nil
		})
	}
	register("Equal", cmp(cmpEq))
	register("Less", cmp(cmpLt))
	register("Greater", cmp(cmpGt))
	register("LessOrEqual", cmp(cmpLe))
	register("GreaterOrEqual", cmp(cmpGe))
	register("And", cmp(cmpAnd))
	register("Or", cmp(cmpOr))
	register("Xor", cmp(cmpXor))
}
