package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// clipKernel runs Clip: bounds from the min and max attributes before
// opset 11, from the optional scalar inputs 1 and 2 after.
type clipKernel struct {
	n  *model.Node
	dt payload.DType
	// attrs is set before opset 11; lo and hi are then the bounds.
	attrs  bool
	lo, hi float32
}

func (k *clipKernel) shape(in, out []*tensor) error {
	for i := 1; i < len(in) && i < 3; i++ {
		if in[i] != nil && in[i].numel() != 1 {
			return shapeErr(k.n, "clipBound input %d has shape %v, want a scalar", i, in[i].shape)
		}
	}
	out[0].setShape(in[0].shape...)
	return nil
}

// clipBound returns input i's scalar, or def when the input is absent.
func clipBound[T ewNum](in []*tensor, i int, def T) T {
	if i < len(in) && in[i] != nil {
		return elems[T](in[i])[0]
	}
	return def
}

func (k *clipKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		lo, hi := float32(-math.MaxFloat32), float32(math.MaxFloat32)
		if k.attrs {
			lo, hi = k.lo, k.hi
		} else {
			lo, hi = clipBound(in, 1, lo), clipBound(in, 2, hi)
		}
		clipRun(out[0].f32(), in[0].f32(), lo, hi)
	case payload.Float64:
		clipRun(out[0].f64(), in[0].f64(), clipBound(in, 1, -math.MaxFloat64), clipBound(in, 2, math.MaxFloat64))
	case payload.Int32:
		clipRun(out[0].i32(), in[0].i32(), clipBound[int32](in, 1, math.MinInt32), clipBound[int32](in, 2, math.MaxInt32))
	case payload.Int64:
		clipRun(out[0].i64(), in[0].i64(), clipBound[int64](in, 1, math.MinInt64), clipBound[int64](in, 2, math.MaxInt64))
	case payload.Int8:
		clipRun(elems[int8](out[0]), elems[int8](in[0]), clipBound[int8](in, 1, math.MinInt8), clipBound[int8](in, 2, math.MaxInt8))
	case payload.Uint8:
		clipRun(out[0].u8(), in[0].u8(), clipBound[uint8](in, 1, 0), clipBound[uint8](in, 2, math.MaxUint8))
	}
	return nil
}

func clipRun[T ewNum](d, x []T, lo, hi T) {
	x = x[:len(d)]
	for i, v := range x {
		d[i] = min(max(v, lo), hi)
	}
}

// preluKernel runs PRelu: the slope broadcasts unidirectionally to x.
type preluKernel struct {
	n  *model.Node
	dt payload.DType
	it bcastIter
}

func (k *preluKernel) shape(in, out []*tensor) error {
	if !unidirectional(in[1].shape, in[0].shape) {
		return shapeErr(k.n, "slope shape %v does not broadcast to input shape %v", in[1].shape, in[0].shape)
	}
	out[0].setShape(in[0].shape...)
	return nil
}

func (k *preluKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape, in[1].shape)
	switch k.dt {
	case payload.Float32:
		preluWalk(&k.it, out[0].f32(), in[0].f32(), in[1].f32())
	case payload.Float64:
		preluWalk(&k.it, out[0].f64(), in[0].f64(), in[1].f64())
	case payload.Int32:
		preluWalk(&k.it, out[0].i32(), in[0].i32(), in[1].i32())
	case payload.Int64:
		preluWalk(&k.it, out[0].i64(), in[0].i64(), in[1].i64())
	}
	return nil
}

func preluWalk[T ewNum](it *bcastIter, d, x, s []T) {
	n := it.inner
	for r := 0; r < it.rows; r++ {
		row, rx, rs := d[r*n:(r+1)*n], x[it.off[0]:it.off[0]+n], s[it.off[1]:]
		if it.istr[1] == 0 {
			a := rs[0]
			for i, v := range rx {
				if v < 0 {
					v *= a
				}
				row[i] = v
			}
		} else {
			rs = rs[:n]
			for i, v := range rx {
				if v < 0 {
					v *= rs[i]
				}
				row[i] = v
			}
		}
		it.next()
	}
}

func init() {
	register("Clip", func(c *buildCtx) (kernel, error) {
		dt := c.inType(0)
		k := &clipKernel{n: c.n, dt: dt}
		if c.opset < 11 {
			if dt != payload.Float32 && dt != payload.Float64 {
				return nil, c.unsupported("element type %s", dt)
			}
			if c.n.NumInputs() != 1 {
				return nil, c.invalid("takes one input before opset 11")
			}
			if dt == payload.Float64 {
				return nil, c.unsupported("float64 Clip before opset 11")
			}
			var err error
			k.attrs = true
			if k.lo, err = c.n.Float("min", -math.MaxFloat32); err != nil {
				return nil, err
			}
			if k.hi, err = c.n.Float("max", math.MaxFloat32); err != nil {
				return nil, err
			}
			return k, nil
		}
		switch dt {
		case payload.Float32, payload.Float64, payload.Int32, payload.Int64, payload.Int8, payload.Uint8:
		default:
			return nil, c.unsupported("element type %s", dt)
		}
		if c.n.NumInputs() < 1 || c.n.NumInputs() > 3 {
			return nil, c.invalid("takes one to three inputs")
		}
		for i := 1; i < c.n.NumInputs(); i++ {
			if c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.invalid("clipBound input %d is %s, input is %s", i, c.inType(i), dt)
			}
		}
		return k, nil
	})
	register("PRelu", func(c *buildCtx) (kernel, error) {
		if c.n.NumInputs() != 2 {
			return nil, c.invalid("needs two inputs")
		}
		dt := c.inType(0)
		if !hasDType(ewArith, dt) {
			return nil, c.unsupported("element type %s", dt)
		}
		if c.inType(1) != dt {
			return nil, c.invalid("slope is %s, input is %s", c.inType(1), dt)
		}
		if c.opset < 7 && !preluSlopeNumpy(c) {
			// Before opset 7 a slope of C values was per channel (axis
			// 1), where numpy broadcasting aligns it with the last axis.
			return nil, c.unsupported("slope of shape %v on input %v (opset %d): only one value or the input's shape", c.in[1].Shape, c.in[0].Shape, c.opset)
		}
		return &preluKernel{n: c.n, dt: dt}, nil
	})
}
