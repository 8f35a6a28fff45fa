package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// whereKernel runs Where(cond, x, y) with three-way broadcasting on any
// element type, moving elements by their size; the descriptor's rule
// (model.WhereAttrs) sets the output's shape.
type whereKernel struct {
	n  *model.Node
	sz int
	it bcastIter
}

func (k *whereKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape, in[1].shape, in[2].shape)
	c := in[0].bools()
	switch k.sz {
	case 1:
		whereWalk(&k.it, out[0].u8(), c, in[1].u8(), in[2].u8())
	case 2:
		whereWalk(&k.it, elems[uint16](out[0]), c, elems[uint16](in[1]), elems[uint16](in[2]))
	case 4:
		whereWalk(&k.it, elems[uint32](out[0]), c, elems[uint32](in[1]), elems[uint32](in[2]))
	case 8:
		whereWalk(&k.it, elems[uint64](out[0]), c, elems[uint64](in[1]), elems[uint64](in[2]))
	}
	return nil
}

func whereWalk[T uint8 | uint16 | uint32 | uint64](it *bcastIter, d []T, c []bool, x, y []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, rc, rx, ry := d[r*n:(r+1)*n], c[it.off[0]:], x[it.off[1]:], y[it.off[2]:]
		sc, sx, sy := it.istr[0], it.istr[1], it.istr[2]
		if sc == 0 {
			// One condition for the whole row: a copy or a fill.
			src, s := rx, sx
			if !rc[0] {
				src, s = ry, sy
			}
			if s == 1 {
				copy(row, src[:n])
			} else {
				v := src[0]
				for i := range row {
					row[i] = v
				}
			}
		} else {
			for i := range row {
				if rc[i] {
					row[i] = rx[i*sx]
				} else {
					row[i] = ry[i*sy]
				}
			}
		}
		it.next()
	}
}

func init() {
	register("Where", func(c *buildCtx) (kernel, error) {
		if c.inType(0) != payload.Bool {
			return nil, c.invalid("condition is %s, want bool", c.inType(0))
		}
		dt := c.inType(1)
		if !elemSizeOK(dt) {
			return nil, c.unsupported("element type %s", dt)
		}
		if c.inType(2) != dt {
			return nil, c.invalid("x is %s but y is %s", dt, c.inType(2))
		}
		return &whereKernel{n: c.n, sz: dt.Size()}, nil
	})
}
