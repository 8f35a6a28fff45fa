package cpu

import (
	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/payload"
)

// Casts to and from the 8-, 4- and 2-bit element types (ADR 24) go
// through a wide scratch copy of the values: int64 when both types are
// integers or booleans, so that an integer wraps exactly, float64
// otherwise, which holds every value of the small types exactly. They
// follow ONNX's reference implementation:
//   - to the float 8 types, round to nearest even; an out-of-range value
//     or infinity saturates to the largest finite value when saturate is
//     set, else becomes infinity (float8e5m2) or NaN (the others);
//   - to float4e2m1, round to nearest even and always saturate; NaN
//     becomes 0x8;
//   - to float8e8m0, through float32, rounded as round_mode says;
//   - to the 4- and 2-bit integers, truncate toward zero and keep the low
//     bits (wrap around), as the casts to the other integers do.

// lowType reports whether dt is one of the element types of ADR 24.
func lowType(dt payload.DType) bool {
	switch dt {
	case payload.F8E4M3FN, payload.F8E4M3FNUZ, payload.F8E5M2, payload.F8E5M2FNUZ,
		payload.F8E8M0, payload.F4E2M1, payload.U4, payload.I4, payload.U2, payload.I2:
		return true
	}
	return false
}

// intLike reports whether dt is an integer or boolean type.
func intLike(dt payload.DType) bool {
	switch dt {
	case payload.Int8, payload.Uint8, payload.Int16, payload.Uint16, payload.Int32,
		payload.Int64, payload.Uint32, payload.Uint64, payload.Bool,
		payload.U4, payload.I4, payload.U2, payload.I2:
		return true
	}
	return false
}

// runWide casts s into d through the kernel's wide scratch.
func (k *castKernel) runWide(s, d *tensor) {
	n := len(d.data) / d.dt.Size()
	if intLike(s.dt) && intLike(d.dt) {
		if cap(k.ibuf) < n {
			k.ibuf = make([]int64, n)
		}
		v := k.ibuf[:n]
		readInts(v, s)
		writeInts(d, v)
		return
	}
	if cap(k.fbuf) < n {
		k.fbuf = make([]float64, n)
	}
	v := k.fbuf[:n]
	readFloats(v, s)
	writeFloats(d, v, k.saturate, k.mode)
}

// widen converts the elements of s into v with Go's conversion.
func widen[W int64 | float64, S ewNum](v []W, s []S) {
	s = s[:len(v)]
	for i, x := range s {
		v[i] = W(x)
	}
}

// narrow converts the values v into d with Go's conversion.
func narrow[D ewNum, W int64 | float64](d []D, v []W) {
	v = v[:len(d)]
	for i, x := range v {
		d[i] = D(x)
	}
}

// readSmallInt reads 4- and 2-bit integers, keeping only their low bits.
func readSmallInt[W int64 | float64](v []W, s *tensor) bool {
	b := s.data[:len(v)]
	switch s.dt {
	case payload.I4:
		for i, x := range b {
			v[i] = W(payload.Int4(x).Int8())
		}
	case payload.U4:
		for i, x := range b {
			v[i] = W(payload.Uint4(x).Uint8())
		}
	case payload.I2:
		for i, x := range b {
			v[i] = W(payload.Int2(x).Int8())
		}
	case payload.U2:
		for i, x := range b {
			v[i] = W(payload.Uint2(x).Uint8())
		}
	default:
		return false
	}
	return true
}

// readBools reads booleans as 0 and 1; any nonzero byte is true.
func readBools[W int64 | float64](v []W, s *tensor) {
	for i, x := range s.data[:len(v)] {
		v[i] = 0
		if x != 0 {
			v[i] = 1
		}
	}
}

// readInts reads the integer or boolean elements of s into v.
func readInts(v []int64, s *tensor) {
	if readSmallInt(v, s) {
		return
	}
	switch s.dt {
	case payload.Int8:
		widen(v, elems[int8](s))
	case payload.Uint8:
		widen(v, s.u8())
	case payload.Int16:
		widen(v, elems[int16](s))
	case payload.Uint16:
		widen(v, elems[uint16](s))
	case payload.Int32:
		widen(v, s.i32())
	case payload.Int64:
		copy(v, s.i64())
	case payload.Uint32:
		widen(v, elems[uint32](s))
	case payload.Uint64:
		widen(v, elems[uint64](s))
	case payload.Bool:
		readBools(v, s)
	}
}

// readFloats reads the elements of s into v, exactly but for integers
// beyond 2^53.
func readFloats(v []float64, s *tensor) {
	if readSmallInt(v, s) {
		return
	}
	switch s.dt {
	case payload.Float32:
		widen(v, s.f32())
	case payload.Float64:
		copy(v, s.f64())
	case payload.Float16:
		for i, x := range elems[float16.Float16](s)[:len(v)] {
			v[i] = float64(x.Float32())
		}
	case payload.BF16:
		for i, x := range elems[payload.BFloat16](s)[:len(v)] {
			v[i] = float64(x.Float32())
		}
	case payload.F8E4M3FN, payload.F8E4M3FNUZ, payload.F8E5M2, payload.F8E5M2FNUZ,
		payload.F8E8M0, payload.F4E2M1:
		for i, x := range s.data[:len(v)] {
			v[i] = float64(payload.LowFloat32(s.dt, x))
		}
	case payload.Int8:
		widen(v, elems[int8](s))
	case payload.Uint8:
		widen(v, s.u8())
	case payload.Int16:
		widen(v, elems[int16](s))
	case payload.Uint16:
		widen(v, elems[uint16](s))
	case payload.Int32:
		widen(v, s.i32())
	case payload.Int64:
		widen(v, s.i64())
	case payload.Uint32:
		widen(v, elems[uint32](s))
	case payload.Uint64:
		widen(v, elems[uint64](s))
	case payload.Bool:
		readBools(v, s)
	}
}

// writeSmallInt stores the low bits of integers into a 4- or 2-bit type,
// sign-extended for the signed ones.
func writeSmallInt(d *tensor, v []int64) bool {
	b := d.data[:len(v)]
	switch d.dt {
	case payload.I4:
		for i, x := range v {
			b[i] = byte(int8(x<<4) >> 4)
		}
	case payload.U4:
		for i, x := range v {
			b[i] = byte(x) & 0xf
		}
	case payload.I2:
		for i, x := range v {
			b[i] = byte(int8(x<<6) >> 6)
		}
	case payload.U2:
		for i, x := range v {
			b[i] = byte(x) & 0x3
		}
	default:
		return false
	}
	return true
}

// writeInts stores the integers v into d, an integer or boolean tensor.
func writeInts(d *tensor, v []int64) {
	if writeSmallInt(d, v) {
		return
	}
	switch d.dt {
	case payload.Int8:
		narrow(elems[int8](d), v)
	case payload.Uint8:
		narrow(d.u8(), v)
	case payload.Int16:
		narrow(elems[int16](d), v)
	case payload.Uint16:
		narrow(elems[uint16](d), v)
	case payload.Int32:
		narrow(d.i32(), v)
	case payload.Int64:
		copy(d.i64(), v)
	case payload.Uint32:
		narrow(elems[uint32](d), v)
	case payload.Uint64:
		narrow(elems[uint64](d), v)
	case payload.Bool:
		for i, x := range v {
			d.data[i] = 0
			if x != 0 {
				d.data[i] = 1
			}
		}
	}
}

// writeFloats stores the values v into d.
func writeFloats(d *tensor, v []float64, saturate bool, mode payload.E8M0Rounding) {
	b := d.data[:min(len(v), len(d.data))]
	switch d.dt {
	case payload.F8E4M3FN:
		for i, x := range v {
			b[i] = byte(payload.Float8E4M3FNFrom(x, saturate))
		}
	case payload.F8E4M3FNUZ:
		for i, x := range v {
			b[i] = byte(payload.Float8E4M3FNUZFrom(x, saturate))
		}
	case payload.F8E5M2:
		for i, x := range v {
			b[i] = byte(payload.Float8E5M2From(x, saturate))
		}
	case payload.F8E5M2FNUZ:
		for i, x := range v {
			b[i] = byte(payload.Float8E5M2FNUZFrom(x, saturate))
		}
	case payload.F4E2M1:
		for i, x := range v {
			b[i] = byte(payload.Float4E2M1From(x))
		}
	case payload.F8E8M0:
		for i, x := range v {
			b[i] = byte(payload.Float8E8M0From(float32(x), saturate, mode))
		}
	case payload.I4, payload.U4, payload.I2, payload.U2:
		for i, x := range v {
			// Truncate toward zero, then keep the low bits.
			w := int64(x)
			switch d.dt {
			case payload.I4:
				b[i] = byte(int8(w<<4) >> 4)
			case payload.U4:
				b[i] = byte(w) & 0xf
			case payload.I2:
				b[i] = byte(int8(w<<6) >> 6)
			default:
				b[i] = byte(w) & 0x3
			}
		}
	case payload.Float32:
		narrow(d.f32(), v)
	case payload.Float64:
		copy(d.f64(), v)
	case payload.Float16:
		h := elems[float16.Float16](d)[:len(v)]
		for i, x := range v {
			h[i] = float16.Fromfloat32(float32(x)) // exact: x comes from a small type
		}
	case payload.BF16:
		h := elems[payload.BFloat16](d)[:len(v)]
		for i, x := range v {
			h[i] = payload.BFloat16From(float32(x))
		}
	case payload.Int8:
		narrow(elems[int8](d), v)
	case payload.Uint8:
		narrow(d.u8(), v)
	case payload.Int16:
		narrow(elems[int16](d), v)
	case payload.Uint16:
		narrow(elems[uint16](d), v)
	case payload.Int32:
		narrow(d.i32(), v)
	case payload.Int64:
		narrow(d.i64(), v)
	case payload.Uint32:
		narrow(elems[uint32](d), v)
	case payload.Uint64:
		narrow(elems[uint64](d), v)
	case payload.Bool:
		for i, x := range v {
			b[i] = 0
			if x != 0 {
				b[i] = 1
			}
		}
	}
}
