package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// argKernel runs ArgMax and ArgMin along one axis, with keepdims and
// select_last_index; the output is int64, its shape set by the
// descriptor's rule (model.ArgAttrs). Ties keep the first index
// unless select_last_index is set.
type argKernel struct {
	dt   payload.DType
	min  bool
	axis int64
	keep bool
	last bool
}

func (k *argKernel) run(in, out []*tensor) error {
	x := in[0].shape
	a, _ := normAxis(k.axis, len(x))
	outer, inner := 1, 1
	for _, d := range x[:a] {
		outer *= d
	}
	for _, d := range x[a+1:] {
		inner *= d
	}
	d := out[0].i64()
	switch k.dt {
	case payload.Float32:
		argRun(k, d, in[0].f32(), outer, x[a], inner)
	case payload.Float64:
		argRun(k, d, in[0].f64(), outer, x[a], inner)
	case payload.Int32:
		argRun(k, d, in[0].i32(), outer, x[a], inner)
	case payload.Int64:
		argRun(k, d, in[0].i64(), outer, x[a], inner)
	case payload.Int8:
		argRun(k, d, elems[int8](in[0]), outer, x[a], inner)
	case payload.Uint8:
		argRun(k, d, in[0].u8(), outer, x[a], inner)
	case payload.Int16:
		argRun(k, d, elems[int16](in[0]), outer, x[a], inner)
	case payload.Uint16:
		argRun(k, d, elems[uint16](in[0]), outer, x[a], inner)
	case payload.Uint32:
		argRun(k, d, elems[uint32](in[0]), outer, x[a], inner)
	case payload.Uint64:
		argRun(k, d, elems[uint64](in[0]), outer, x[a], inner)
	}
	return nil
}

// argRun finds, for each (outer, inner) position, the index along the n
// axis of the largest (or smallest) element.
func argRun[T ewNum](k *argKernel, d []int64, x []T, outer, n, inner int) {
	for o := range outer {
		xs := x[o*n*inner : (o+1)*n*inner]
		ds := d[o*inner : (o+1)*inner]
		for j := range ds {
			best, bi := xs[j], 0
			for i := 1; i < n; i++ {
				v := xs[i*inner+j]
				var better bool
				if k.min {
					better = v < best || k.last && v == best
				} else {
					better = v > best || k.last && v == best
				}
				if better {
					best, bi = v, i
				}
			}
			ds[j] = int64(bi)
		}
	}
}

func init() {
	b := func(min bool) builder {
		return viaF32(func(c *buildCtx) (kernel, error) {
			if dt := c.inType(0); !hasDType(ewOrdered, dt) {
				return nil, c.unsupported("element type %s", dt)
			}
			a := c.rule.(*model.ArgAttrs)
			k := &argKernel{dt: c.inType(0), min: min, axis: a.Axis, keep: a.KeepDims, last: a.SelectLast}
			if s := c.in[0].Shape; c.in[0].RankKnown {
				if _, ok := normAxis(k.axis, len(s)); !ok {
					return nil, c.invalid("axis %d out of range for rank %d", k.axis, len(s))
				}
			}
			if len(c.out) > 0 && c.out[0].DType != payload.Int64 {
				return nil, c.invalid("output is %s, want int64", c.out[0].DType)
			}
			return k, nil
		})
	}
	register("ArgMax", b(false))
	register("ArgMin", b(true))
}
