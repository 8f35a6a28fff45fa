package cpu

import (
	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// castKernel runs Cast and CastLike between the numeric and boolean element
// types. Conversions follow ONNX Runtime: float to integer truncates toward
// zero, anything to bool is x != 0 (NaN is true), bool is 0 or 1, and
// float16 and bfloat16 round to nearest even. Casts that involve the 8-,
// 4- and 2-bit types are in op_cast_low.go. The descriptor's rule
// (model.CastAttrs, model.CastLikeAttrs) sets the output's shape.
type castKernel struct {
	n        *model.Node
	to       payload.DType
	saturate bool
	mode     payload.E8M0Rounding
	// Scratch of the casts through op_cast_low.go's wide values.
	ibuf []int64
	fbuf []float64
}

func (k *castKernel) run(in, out []*tensor) error {
	s, d := in[0], out[0]
	if s.dt == d.dt {
		copy(d.data, s.data)
		return nil
	}
	if lowType(s.dt) || lowType(d.dt) {
		k.runWide(s, d)
		return nil
	}
	switch s.dt {
	case payload.Float32:
		castFrom(d, s.f32())
	case payload.Float64:
		castFrom(d, s.f64())
	case payload.Int8:
		castFrom(d, elems[int8](s))
	case payload.Uint8:
		castFrom(d, s.u8())
	case payload.Int16:
		castFrom(d, elems[int16](s))
	case payload.Uint16:
		castFrom(d, elems[uint16](s))
	case payload.Int32:
		castFrom(d, s.i32())
	case payload.Int64:
		castFrom(d, s.i64())
	case payload.Uint32:
		castFrom(d, elems[uint32](s))
	case payload.Uint64:
		castFrom(d, elems[uint64](s))
	case payload.Float16:
		castHalf(d, elems[float16.Float16](s))
	case payload.BF16:
		castHalf(d, elems[payload.BFloat16](s))
	case payload.Bool:
		castBool(d, s.bools())
	}
	return nil
}

// castNum converts between Go number types with Go's conversion.
func castNum[D, S ewNum](d []D, s []S) {
	s = s[:len(d)]
	for i, v := range s {
		d[i] = D(v)
	}
}

// castFrom converts the numbers s into dst's element type.
func castFrom[S ewNum](dst *tensor, s []S) {
	switch dst.dt {
	case payload.Float32:
		castNum(dst.f32(), s)
	case payload.Float64:
		castNum(dst.f64(), s)
	case payload.Int8:
		castNum(elems[int8](dst), s)
	case payload.Uint8:
		castNum(dst.u8(), s)
	case payload.Int16:
		castNum(elems[int16](dst), s)
	case payload.Uint16:
		castNum(elems[uint16](dst), s)
	case payload.Int32:
		castNum(dst.i32(), s)
	case payload.Int64:
		castNum(dst.i64(), s)
	case payload.Uint32:
		castNum(elems[uint32](dst), s)
	case payload.Uint64:
		castNum(elems[uint64](dst), s)
	case payload.Float16:
		d := elems[float16.Float16](dst)
		s = s[:len(d)]
		for i, v := range s {
			d[i] = float16.Fromfloat32(castF32(v))
		}
	case payload.BF16:
		d := elems[payload.BFloat16](dst)
		s = s[:len(d)]
		for i, v := range s {
			d[i] = payload.BFloat16From(castF32(v))
		}
	case payload.Bool:
		d := dst.bools()
		s = s[:len(d)]
		for i, v := range s {
			d[i] = v != 0
		}
	}
}

// castF32 converts v to float32; a float64 rounds once, directly.
func castF32[S ewNum](v S) float32 { return float32(v) }

// castHalfType is the 16-bit float types.
type castHalfType interface {
	float16.Float16 | payload.BFloat16
	Float32() float32
}

// castHalf converts 16-bit floats through float32, which holds them
// exactly.
func castHalf[H castHalfType](dst *tensor, s []H) {
	switch dst.dt {
	case payload.Float32:
		halfTo(dst.f32(), s)
	case payload.Float64:
		halfTo(dst.f64(), s)
	case payload.Int8:
		halfTo(elems[int8](dst), s)
	case payload.Uint8:
		halfTo(dst.u8(), s)
	case payload.Int16:
		halfTo(elems[int16](dst), s)
	case payload.Uint16:
		halfTo(elems[uint16](dst), s)
	case payload.Int32:
		halfTo(dst.i32(), s)
	case payload.Int64:
		halfTo(dst.i64(), s)
	case payload.Uint32:
		halfTo(elems[uint32](dst), s)
	case payload.Uint64:
		halfTo(elems[uint64](dst), s)
	case payload.Float16:
		d := elems[float16.Float16](dst)
		for i := range d {
			d[i] = float16.Fromfloat32(s[i].Float32())
		}
	case payload.BF16:
		d := elems[payload.BFloat16](dst)
		for i := range d {
			d[i] = payload.BFloat16From(s[i].Float32())
		}
	case payload.Bool:
		d := dst.bools()
		for i := range d {
			d[i] = s[i].Float32() != 0
		}
	}
}

func halfTo[D ewNum, H castHalfType](d []D, s []H) {
	s = s[:len(d)]
	for i, v := range s {
		d[i] = D(v.Float32())
	}
}

// castBool converts bools to 0 and 1.
func castBool(dst *tensor, s []bool) {
	switch dst.dt {
	case payload.Float32:
		boolTo(dst.f32(), s)
	case payload.Float64:
		boolTo(dst.f64(), s)
	case payload.Int8:
		boolTo(elems[int8](dst), s)
	case payload.Uint8:
		boolTo(dst.u8(), s)
	case payload.Int16:
		boolTo(elems[int16](dst), s)
	case payload.Uint16:
		boolTo(elems[uint16](dst), s)
	case payload.Int32:
		boolTo(dst.i32(), s)
	case payload.Int64:
		boolTo(dst.i64(), s)
	case payload.Uint32:
		boolTo(elems[uint32](dst), s)
	case payload.Uint64:
		boolTo(elems[uint64](dst), s)
	case payload.Float16:
		d := elems[float16.Float16](dst)
		for i := range d {
			d[i] = 0
			if s[i] {
				d[i] = float16.Fromfloat32(1)
			}
		}
	case payload.BF16:
		d := elems[payload.BFloat16](dst)
		for i := range d {
			d[i] = 0
			if s[i] {
				d[i] = payload.BFloat16From(1)
			}
		}
	}
}

func boolTo[D ewNum](d []D, s []bool) {
	s = s[:len(d)]
	for i, v := range s {
		if v {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

// castable reports whether the Cast kernel handles dt.
func castable(dt payload.DType) bool {
	if lowType(dt) {
		return true
	}
	switch dt {
	case payload.Float32, payload.Float64, payload.Float16, payload.BF16,
		payload.Int8, payload.Uint8, payload.Int16, payload.Uint16,
		payload.Int32, payload.Int64, payload.Uint32, payload.Uint64, payload.Bool:
		return true
	}
	return false
}

// buildCast checks the source and target types of a Cast or CastLike.
func buildCast(c *buildCtx, to payload.DType, saturate bool, mode payload.E8M0Rounding) (kernel, error) {
	if from := c.inType(0); !castable(from) {
		return nil, c.unsupported("casting from %s", from)
	}
	if !castable(to) {
		return nil, c.unsupported("casting to %s", to)
	}
	if len(c.out) > 0 && c.out[0].DType != payload.Undefined && c.out[0].DType != to {
		return nil, c.invalid("output is typed %s, the cast yields %s", c.out[0].DType, to)
	}
	return &castKernel{n: c.n, to: to, saturate: saturate, mode: mode}, nil
}

func init() {
	register("Cast", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.CastAttrs)
		return buildCast(c, a.To, a.Saturate, a.RoundMode)
	})
	register("CastLike", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.CastLikeAttrs)
		return buildCast(c, c.inType(1), a.Saturate, a.RoundMode)
	})
}
