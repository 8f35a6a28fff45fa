package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// cumKernel is CumSum and CumProd: running sums (products) along the
// axis given by input 1, optionally exclusive of each element and from
// the end. The descriptor's rule (model.CumulativeAttrs) sets the output
// shape.
type cumKernel struct {
	n   *model.Node
	a   model.CumulativeAttrs
	buf []int64
}

// cumTypes are the element types the kernel accumulates.
var cumTypes = []payload.DType{payload.Float32, payload.Float64, payload.Int32, payload.Int64, payload.Uint32, payload.Uint64}

func (k *cumKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	av, _ := intValues(in[1], &k.buf)
	if len(av) != 1 {
		return shapeErr(k.n, "the axis input has %d elements, want one", len(av))
	}
	ax, ok := wrapAxis(av[0], len(x.shape))
	if !ok {
		return shapeErr(k.n, "axis %d out of range for rank %d", av[0], len(x.shape))
	}
	outer, n, inner := mulDims(x.shape[:ax]), x.shape[ax], mulDims(x.shape[ax+1:])
	if outer*n*inner == 0 {
		return nil
	}
	switch x.dt {
	case payload.Float32:
		cumRun(&k.a, y.f32(), x.f32(), outer, n, inner)
	case payload.Float64:
		cumRun(&k.a, y.f64(), x.f64(), outer, n, inner)
	case payload.Int32:
		cumRun(&k.a, y.i32(), x.i32(), outer, n, inner)
	case payload.Int64:
		cumRun(&k.a, y.i64(), x.i64(), outer, n, inner)
	case payload.Uint32:
		cumRun(&k.a, elems[uint32](y), elems[uint32](x), outer, n, inner)
	case payload.Uint64:
		cumRun(&k.a, elems[uint64](y), elems[uint64](x), outer, n, inner)
	}
	return nil
}

// cumRun accumulates row by row along the axis: each output row is the
// previous output row combined with one input row, so the sums (products)
// run in the axis's order, as a sequential loop's would.
func cumRun[T ewNum](a *model.CumulativeAttrs, dst, src []T, outer, n, inner int) {
	for o := range outer {
		base := o * n * inner
		row := func(b []T, i int) []T { return b[base+i*inner : base+(i+1)*inner] }
		for step := range n {
			i, prev := step, step-1
			if a.Reverse {
				i, prev = n-1-step, n-step
			}
			d := row(dst, i)
			if step == 0 {
				if !a.Exclusive {
					copy(d, row(src, i))
					continue
				}
				var id T
				if a.Prod {
					id = 1
				}
				for j := range d {
					d[j] = id
				}
				continue
			}
			p, s := row(dst, prev), row(src, i)
			if a.Exclusive {
				s = row(src, prev)
			}
			if a.Prod {
				for j := range d {
					d[j] = p[j] * s[j]
				}
			} else {
				for j := range d {
					d[j] = p[j] + s[j]
				}
			}
		}
	}
}

func init() {
	b := func(c *buildCtx) (kernel, error) {
		if dt := c.inType(0); !hasDType(cumTypes, dt) {
			return nil, c.unsupported("element type %s (supported: %v)", dt, cumTypes)
		}
		if !c.intInputOK(1, true) {
			return nil, c.unsupported("axis of type %s", c.inType(1))
		}
		return &cumKernel{n: c.n, a: *c.rule.(*model.CumulativeAttrs)}, nil
	}
	register("CumSum", b)
	register("CumProd", b)
}
