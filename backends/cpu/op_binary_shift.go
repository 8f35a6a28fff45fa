package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// bitShiftKernel runs BitShift on unsigned integers with broadcasting (the
// descriptor's rule, model.BinaryAttrs, sets the output's shape). A shift
// by the width or more gives 0.
type bitShiftKernel struct {
	n    *model.Node
	dt   payload.DType
	left bool
	it   bcastIter
}

func (k *bitShiftKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape, in[1].shape)
	switch k.dt {
	case payload.Uint8:
		shiftWalk(k.left, &k.it, out[0].u8(), in[0].u8(), in[1].u8())
	case payload.Uint16:
		shiftWalk(k.left, &k.it, elems[uint16](out[0]), elems[uint16](in[0]), elems[uint16](in[1]))
	case payload.Uint32:
		shiftWalk(k.left, &k.it, elems[uint32](out[0]), elems[uint32](in[0]), elems[uint32](in[1]))
	case payload.Uint64:
		shiftWalk(k.left, &k.it, elems[uint64](out[0]), elems[uint64](in[0]), elems[uint64](in[1]))
	}
	return nil
}

func shiftWalk[T uint8 | uint16 | uint32 | uint64](left bool, it *bcastIter, d, a, b []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, ra, rb := d[r*n:(r+1)*n], a[it.off[0]:], b[it.off[1]:]
		sa, sb := it.istr[0], it.istr[1]
		if left {
			for i := range row {
				row[i] = ra[i*sa] << rb[i*sb]
			}
		} else {
			for i := range row {
				row[i] = ra[i*sa] >> rb[i*sb]
			}
		}
		it.next()
	}
}

func init() {
	register("BitShift", func(c *buildCtx) (kernel, error) {
		dt := c.inType(0)
		switch dt {
		case payload.Uint8, payload.Uint16, payload.Uint32, payload.Uint64:
		default:
			return nil, c.unsupported("element type %s", dt)
		}
		if c.inType(1) != dt {
			return nil, c.invalid("inputs have element types %s and %s", dt, c.inType(1))
		}
		return &bitShiftKernel{n: c.n, dt: dt, left: c.rule.(*model.BinaryAttrs).Left}, nil
	})
}
