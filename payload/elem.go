package payload

import (
	"math"

	"github.com/x448/float16"
)

// BFloat16 is a brain floating-point number: the upper 16 bits of a float32.
type BFloat16 uint16

// BFloat16From converts f to bfloat16, rounding to nearest even.
func BFloat16From(f float32) BFloat16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 { // NaN: keep it a quiet NaN
		return BFloat16(b>>16 | 0x40)
	}
	b += 0x7fff + (b>>16)&1
	return BFloat16(b >> 16)
}

// Float32 returns the value as a float32, exactly.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// Elem is the set of element types a Tensor may hold.
type Elem interface {
	float32 | float64 | float16.Float16 | BFloat16 | int8 | uint8 | int16 | uint16 | int32 | int64 | uint32 | uint64 | bool |
		Float8E4M3FN | Float8E4M3FNUZ | Float8E5M2 | Float8E5M2FNUZ | Float8E8M0 | Float4E2M1 | Uint4 | Int4 | Uint2 | Int2
}

// DTypeOf returns the DType of the element type E.
func DTypeOf[E Elem]() DType {
	var z E
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case float16.Float16:
		return Float16
	case BFloat16:
		return BF16
	case int8:
		return Int8
	case uint8:
		return Uint8
	case int16:
		return Int16
	case uint16:
		return Uint16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case bool:
		return Bool
	case Float8E4M3FN:
		return F8E4M3FN
	case Float8E4M3FNUZ:
		return F8E4M3FNUZ
	case Float8E5M2:
		return F8E5M2
	case Float8E5M2FNUZ:
		return F8E5M2FNUZ
	case Float8E8M0:
		return F8E8M0
	case Float4E2M1:
		return F4E2M1
	case Uint4:
		return U4
	case Int4:
		return I4
	case Uint2:
		return U2
	case Int2:
		return I2
	}
	return Undefined
}
