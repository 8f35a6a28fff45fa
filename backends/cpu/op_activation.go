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

// shape refuses bound inputs that do not hold one element.
func (k *clipKernel) shape(in, out []*tensor) error {
	for i := 1; i < len(in) && i < 3; i++ {
		if in[i] != nil && in[i].numel() != 1 {
			return shapeErr(k.n, "bound input %d has shape %v, want a scalar", i, in[i].shape)
		}
	}
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
		clip32(out[0].f32(), in[0].f32(), lo, hi)
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
	case payload.Int16:
		clipRun(elems[int16](out[0]), elems[int16](in[0]), clipBound[int16](in, 1, math.MinInt16), clipBound[int16](in, 2, math.MaxInt16))
	case payload.Uint16:
		clipRun(elems[uint16](out[0]), elems[uint16](in[0]), clipBound[uint16](in, 1, 0), clipBound[uint16](in, 2, math.MaxUint16))
	case payload.Uint32:
		clipRun(elems[uint32](out[0]), elems[uint32](in[0]), clipBound[uint32](in, 1, 0), clipBound[uint32](in, 2, math.MaxUint32))
	case payload.Uint64:
		clipRun(elems[uint64](out[0]), elems[uint64](in[0]), clipBound[uint64](in, 1, 0), clipBound[uint64](in, 2, math.MaxUint64))
	}
	return nil
}

// clip32 is clipRun for float32 on actClip32's bits (clipTo32).
func clip32(d, x []float32, lo, hi float32) { clipTo32(d, x, lo, hi) }

func clipRun[T ewNum](d, x []T, lo, hi T) {
	x = x[:len(d)]
	for i, v := range x {
		d[i] = min(max(v, lo), hi)
	}
}

// preluKernel runs PRelu: the slope broadcasts unidirectionally to x
// (from opset 7), or has one element or one per channel (before), as the
// descriptor's rule (model.PReluAttrs) has checked.
type preluKernel struct {
	n  *model.Node
	dt payload.DType
	// perChannel is set before opset 7.
	perChannel bool
	// sshape holds the slope's shape as it broadcasts to x before opset 7.
	sshape []int
	it     bcastIter
}

// slopeShape returns the shape the slope s broadcasts from onto x: its
// own, or before opset 7 a scalar's or [C, 1, ...] for a per-channel one.
func (k *preluKernel) slopeShape(x, s *tensor) []int {
	if !k.perChannel {
		return s.shape
	}
	if s.numel() == 1 {
		return s.shape[:0]
	}
	d := growInts(&k.sshape, len(x.shape)-1)
	for i := range d {
		d[i] = 1
	}
	d[0] = s.shape[0]
	return d
}

func (k *preluKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape, k.slopeShape(in[0], in[1]))
	switch k.dt {
	case payload.Float32:
		preluWalk(&k.it, out[0].f32(), in[0].f32(), in[1].f32())
	case payload.Float64:
		preluWalk(&k.it, out[0].f64(), in[0].f64(), in[1].f64())
	case payload.Int32:
		preluWalk(&k.it, out[0].i32(), in[0].i32(), in[1].i32())
	case payload.Int64:
		preluWalk(&k.it, out[0].i64(), in[0].i64(), in[1].i64())
	case payload.Int8:
		preluWalk(&k.it, elems[int8](out[0]), elems[int8](in[0]), elems[int8](in[1]))
	case payload.Int16:
		preluWalk(&k.it, elems[int16](out[0]), elems[int16](in[0]), elems[int16](in[1]))
	case payload.Uint8, payload.Uint16, payload.Uint32, payload.Uint64:
		// No unsigned value is negative: the output is x.
		copy(out[0].data, in[0].data)
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
	register("Clip", viaF32(func(c *buildCtx) (kernel, error) {
		dt := c.inType(0)
		a := c.rule.(*model.ClipAttrs)
		k := &clipKernel{n: c.n, dt: dt}
		if a.FromAttrs {
			if dt != payload.Float32 {
				return nil, c.unsupported("element type %s before opset 11 (supported: float32)", dt)
			}
			k.attrs, k.lo, k.hi = true, a.Min, a.Max
			return k, nil
		}
		if !hasDType(ewOrdered, dt) {
			return nil, c.unsupported("element type %s", dt)
		}
		for i := 1; i < c.n.NumInputs(); i++ {
			if c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.invalid("bound input %d is %s, input is %s", i, c.inType(i), dt)
			}
		}
		return k, nil
	}))
	register("PRelu", viaF32(func(c *buildCtx) (kernel, error) {
		dt := c.inType(0)
		if !hasDType(ewOrdered, dt) {
			return nil, c.unsupported("element type %s", dt)
		}
		if c.inType(1) != dt {
			return nil, c.invalid("slope is %s, input is %s", c.inType(1), dt)
		}
		return &preluKernel{n: c.n, dt: dt, perChannel: c.rule.(*model.PReluAttrs).PerChannel}, nil
	}))
}
