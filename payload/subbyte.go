package payload

// Uint4 is a 4-bit unsigned integer, 0 to 15, held in a byte.
type Uint4 uint8

// Int4 is a 4-bit two's-complement integer, -8 to 7, held sign-extended
// in a byte.
type Int4 int8

// Uint2 is a 2-bit unsigned integer, 0 to 3, held in a byte.
type Uint2 uint8

// Int2 is a 2-bit two's-complement integer, -2 to 1, held sign-extended
// in a byte.
type Int2 int8

// Uint8 returns the value of the low 4 bits.
func (v Uint4) Uint8() uint8 { return uint8(v) & 0xf }

// Int8 returns the value of the low 4 bits, sign-extended.
func (v Int4) Int8() int8 { return int8(v<<4) >> 4 }

// Uint8 returns the value of the low 2 bits.
func (v Uint2) Uint8() uint8 { return uint8(v) & 0x3 }

// Int8 returns the value of the low 2 bits, sign-extended.
func (v Int2) Int8() int8 { return int8(v<<6) >> 6 }

// PackedLen returns how many bytes n elements of dt take as ONNX stores
// them: packed two or four to a byte for the 4- and 2-bit types, n*Size
// otherwise.
func PackedLen(dt DType, n int) int {
	switch b := dt.Bits(); b {
	case 4, 2:
		per := 8 / b
		return (n + per - 1) / per
	}
	return n * dt.Size()
}

// Unpack spreads the len(dst) packed 4- or 2-bit elements of type dt in
// src into one byte each, the first element in the lowest bits of a byte
// as ONNX packs them; I4 and I2 are sign-extended. src must hold
// PackedLen(dt, len(dst)) bytes. For other types it copies.
func Unpack(dt DType, dst, src []byte) {
	b := dt.Bits()
	if b != 4 && b != 2 {
		copy(dst, src)
		return
	}
	per := 8 / b
	shift := uint(8 - b)
	signed := dt == I4 || dt == I2
	for i := range dst {
		v := src[i/per] >> (uint(i%per) * uint(b)) << shift
		if signed {
			dst[i] = byte(int8(v) >> shift)
		} else {
			dst[i] = v >> shift
		}
	}
}

// Pack packs the one-byte elements of type dt in src into dst as ONNX
// stores the 4- and 2-bit types, the first element in the lowest bits of a
// byte and the padding bits zero. dst must hold PackedLen(dt, len(src))
// bytes. For other types it copies.
func Pack(dt DType, dst, src []byte) {
	b := dt.Bits()
	if b != 4 && b != 2 {
		copy(dst, src)
		return
	}
	per := 8 / b
	mask := byte(1)<<b - 1
	n := PackedLen(dt, len(src))
	clear(dst[:n])
	for i, v := range src {
		dst[i/per] |= (v & mask) << (uint(i%per) * uint(b))
	}
}
