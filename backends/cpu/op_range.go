package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// rangeKernel is Range: start, start+delta, ... up to (excluding) limit,
// for float32, float64, int16, int32 and int64. Values accumulate delta
// one step at a time, as ONNX Runtime does. The descriptor's rule
// (model.RangeAttrs) sets the length, except for int16, whose values the
// executor does not hand the rule: shape counts those.
type rangeKernel struct{ n *model.Node }

// shape fills in the length of an int16 range.
func (k *rangeKernel) shape(in, out []*tensor) error {
	y := out[0]
	if y.dt != payload.Int16 {
		return nil
	}
	for _, t := range in {
		if t.numel() != 1 {
			return shapeErr(k.n, "start, limit and delta must hold one value each")
		}
	}
	s := int64(elems[int16](in[0])[0])
	l := int64(elems[int16](in[1])[0])
	d := int64(elems[int16](in[2])[0])
	n := int64(0)
	switch {
	case d == 0:
		return shapeErr(k.n, "delta is 0")
	case d > 0 && l > s:
		n = (l-s-1)/d + 1
	case d < 0 && l < s:
		n = (s-l-1)/(-d) + 1
	}
	y.shape[0] = int(n)
	return nil
}

func fillRange[E float32 | float64 | int16 | int32 | int64](y []E, start, delta E) {
	v := start
	for i := range y {
		y[i] = v
		v += delta
	}
}

func (k *rangeKernel) run(in, out []*tensor) error {
	y := out[0]
	switch y.dt {
	case payload.Float32:
		fillRange(y.f32(), in[0].f32()[0], in[2].f32()[0])
	case payload.Float64:
		fillRange(y.f64(), in[0].f64()[0], in[2].f64()[0])
	case payload.Int16:
		fillRange(elems[int16](y), elems[int16](in[0])[0], elems[int16](in[2])[0])
	case payload.Int32:
		fillRange(y.i32(), in[0].i32()[0], in[2].i32()[0])
	case payload.Int64:
		fillRange(y.i64(), in[0].i64()[0], in[2].i64()[0])
	}
	return nil
}

func init() {
	register("Range", viaF32(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64, payload.Int16, payload.Int32, payload.Int64); err != nil {
			return nil, err
		}
		if c.n.NumInputs() != 3 || c.inType(1) != c.inType(0) || c.inType(2) != c.inType(0) {
			return nil, c.invalid("start, limit and delta must be three inputs of one type")
		}
		if c.out[0].DType != c.inType(0) {
			return nil, c.invalid("output type %s, want %s", c.out[0].DType, c.inType(0))
		}
		return &rangeKernel{n: c.n}, nil
	}))
}
