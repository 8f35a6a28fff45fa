package cpu

import (
	"github.com/lintel-ml/lintel/payload"
)

// bitOp is a bitwise op.
type bitOp uint8

const (
	bitAnd bitOp = iota
	bitOr
	bitXor
	bitNot
)

// bitwiseKernel runs BitwiseAnd, BitwiseOr and BitwiseXor with
// broadcasting (the descriptor's rule, model.BinaryAttrs, sets the
// output's shape), and BitwiseNot, on any integer type: the ops do not
// depend on the sign, so the kernel works on the unsigned integers of the
// elements' width.
type bitwiseKernel struct {
	op   bitOp
	size int
	it   bcastIter
}

func (k *bitwiseKernel) run(in, out []*tensor) error {
	if k.op == bitNot {
		switch k.size {
		case 1:
			notAll(out[0].u8(), in[0].u8())
		case 2:
			notAll(elems[uint16](out[0]), elems[uint16](in[0]))
		case 4:
			notAll(elems[uint32](out[0]), elems[uint32](in[0]))
		case 8:
			notAll(elems[uint64](out[0]), elems[uint64](in[0]))
		}
		return nil
	}
	k.it.init(out[0].shape, in[0].shape, in[1].shape)
	switch k.size {
	case 1:
		bitWalk(k.op, &k.it, out[0].u8(), in[0].u8(), in[1].u8())
	case 2:
		bitWalk(k.op, &k.it, elems[uint16](out[0]), elems[uint16](in[0]), elems[uint16](in[1]))
	case 4:
		bitWalk(k.op, &k.it, elems[uint32](out[0]), elems[uint32](in[0]), elems[uint32](in[1]))
	case 8:
		bitWalk(k.op, &k.it, elems[uint64](out[0]), elems[uint64](in[0]), elems[uint64](in[1]))
	}
	return nil
}

func notAll[T uint8 | uint16 | uint32 | uint64](d, a []T) {
	a = a[:len(d)]
	for i, v := range a {
		d[i] = ^v
	}
}

func bitWalk[T uint8 | uint16 | uint32 | uint64](op bitOp, it *bcastIter, d, a, b []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, ra, rb := d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:]
		sa, sb := it.istr[0], it.istr[1]
		switch op {
		case bitAnd:
			for i := range row {
				row[i] = ra[i*sa] & rb[i*sb]
			}
		case bitOr:
			for i := range row {
				row[i] = ra[i*sa] | rb[i*sb]
			}
		case bitXor:
			for i := range row {
				row[i] = ra[i*sa] ^ rb[i*sb]
			}
		}
		it.next()
	}
}

// integerType reports whether dt is one of the integer element types the
// bitwise ops take.
func integerType(dt payload.DType) bool {
	switch dt {
	case payload.Int8, payload.Uint8, payload.Int16, payload.Uint16, payload.Int32, payload.Uint32, payload.Int64, payload.Uint64:
		return true
	}
	return false
}

func init() {
	build := func(op bitOp) builder {
		return func(c *buildCtx) (kernel, error) {
			dt := c.inType(0)
			if !integerType(dt) {
				return nil, c.unsupported("element type %s (the bitwise ops take integers)", dt)
			}
			if op != bitNot && c.inType(1) != dt {
				return nil, c.invalid("inputs have element types %s and %s", dt, c.inType(1))
			}
			return &bitwiseKernel{op: op, size: dt.Size()}, nil
		}
	}
	register("BitwiseAnd", build(bitAnd))
	register("BitwiseOr", build(bitOr))
	register("BitwiseXor", build(bitXor))
	register("BitwiseNot", build(bitNot))
}
