package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// rangeKernel is Range: start, start+delta, ... up to (excluding) limit,
// for float32, float64, int16, int32 and int64. Values accumulate delta
// one step at a time, as ONNX Runtime does.
type rangeKernel struct{ n *model.Node }

// rangeScalar returns input i's single value as float64 and int64.
func rangeScalar(t *tensor) (float64, int64, bool) {
	if t == nil || t.numel() != 1 {
		return 0, 0, false
	}
	switch t.dt {
	case payload.Float32:
		return float64(t.f32()[0]), 0, true
	case payload.Float64:
		return t.f64()[0], 0, true
	case payload.Int16:
		v := int64(elems[int16](t)[0])
		return float64(v), v, true
	case payload.Int32:
		v := int64(t.i32()[0])
		return float64(v), v, true
	case payload.Int64:
		v := t.i64()[0]
		return float64(v), v, true
	}
	return 0, 0, false
}

// count returns the number of elements.
func (k *rangeKernel) count(in []*tensor) (int, error) {
	fs, is, ok1 := rangeScalar(in[0])
	fl, il, ok2 := rangeScalar(optIn(in, 1))
	fd, id, ok3 := rangeScalar(optIn(in, 2))
	if !ok1 || !ok2 || !ok3 {
		return 0, shapeErr(k.n, "start, limit and delta must be scalars of one type")
	}
	if in[0].dt.IsFloat() {
		if fd == 0 || math.IsNaN(fd) {
			return 0, shapeErr(k.n, "delta is %v", fd)
		}
		diff := fl - fs
		if in[0].dt == payload.Float32 {
			diff = float64(float32(fl) - float32(fs))
		}
		n := math.Ceil(diff / fd)
		if math.IsNaN(n) || n > float64(maxDim) {
			return 0, shapeErr(k.n, "range from %v to %v by %v is too long", fs, fl, fd)
		}
		return int(max(n, 0)), nil
	}
	if id == 0 {
		return 0, shapeErr(k.n, "delta is 0")
	}
	diff := il - is
	if (il >= is) != (diff >= 0) {
		return 0, shapeErr(k.n, "range from %d to %d overflows", is, il)
	}
	if diff == 0 || (diff > 0) != (id > 0) {
		return 0, nil
	}
	ad, ax := diff, id
	if ad < 0 {
		ad, ax = -ad, -ax
	}
	if ad < 0 || ax < 0 {
		return 0, shapeErr(k.n, "range from %d to %d by %d overflows", is, il, id)
	}
	n := (ad-1)/ax + 1
	if n > int64(maxDim) {
		return 0, shapeErr(k.n, "range too long")
	}
	return int(n), nil
}

func (k *rangeKernel) shape(in, out []*tensor) error {
	n, err := k.count(in)
	if err != nil {
		return err
	}
	out[0].setShape(n)
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
	register("Range", func(c *buildCtx) (kernel, error) {
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
	})
}
