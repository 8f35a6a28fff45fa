package payload

import "math"

// Float8E4M3FN is an 8-bit float: a sign, 4 exponent bits (bias 7) and 3
// mantissa bits. It has no infinity; S.1111.111 is NaN, and the largest
// finite value is 448.
type Float8E4M3FN uint8

// Float8E4M3FNUZ is an 8-bit float with 4 exponent bits (bias 8) and 3
// mantissa bits, no infinity and no negative zero: 0x80 is its only NaN.
// The largest finite value is 240.
type Float8E4M3FNUZ uint8

// Float8E5M2 is an 8-bit float with 5 exponent bits (bias 15) and 2
// mantissa bits, laid out as IEEE 754 binary16's upper byte: it has
// infinities and NaNs. The largest finite value is 57344.
type Float8E5M2 uint8

// Float8E5M2FNUZ is an 8-bit float with 5 exponent bits (bias 16) and 2
// mantissa bits, no infinity and no negative zero: 0x80 is its only NaN.
// The largest finite value is 57344.
type Float8E5M2FNUZ uint8

// Float4E2M1 is a 4-bit float held in the low bits of a byte: a sign (bit
// 3), 2 exponent bits (bias 1) and 1 mantissa bit. Its values are 0, 0.5,
// 1, 1.5, 2, 3, 4 and 6 and their negatives; it has neither infinity nor
// NaN.
type Float4E2M1 uint8

// Float8E4M3FNFrom converts f to Float8E4M3FN, rounding to nearest even.
// A value out of range (infinities included) becomes ±448 when saturate
// is true, NaN otherwise; NaN stays NaN.
func Float8E4M3FNFrom(f float64, saturate bool) Float8E4M3FN {
	return Float8E4M3FN(e4m3fn.encode(f, saturate))
}

// Float32 returns the value as a float32, exactly.
func (v Float8E4M3FN) Float32() float32 { return e4m3fn.decode(uint8(v)) }

// Float8E4M3FNUZFrom converts f to Float8E4M3FNUZ, rounding to nearest
// even. A value out of range (infinities included) becomes ±240 when
// saturate is true, NaN otherwise; NaN stays NaN, and a result of -0
// becomes +0.
func Float8E4M3FNUZFrom(f float64, saturate bool) Float8E4M3FNUZ {
	return Float8E4M3FNUZ(e4m3fnuz.encode(f, saturate))
}

// Float32 returns the value as a float32, exactly.
func (v Float8E4M3FNUZ) Float32() float32 { return e4m3fnuz.decode(uint8(v)) }

// Float8E5M2From converts f to Float8E5M2, rounding to nearest even. A
// value out of range (infinities included) becomes ±57344 when saturate is
// true, ±infinity otherwise; NaN stays NaN.
func Float8E5M2From(f float64, saturate bool) Float8E5M2 {
	return Float8E5M2(e5m2.encode(f, saturate))
}

// Float32 returns the value as a float32, exactly.
func (v Float8E5M2) Float32() float32 { return e5m2.decode(uint8(v)) }

// Float8E5M2FNUZFrom converts f to Float8E5M2FNUZ, rounding to nearest
// even. A value out of range (infinities included) becomes ±57344 when
// saturate is true, NaN otherwise; NaN stays NaN, and a result of -0
// becomes +0.
func Float8E5M2FNUZFrom(f float64, saturate bool) Float8E5M2FNUZ {
	return Float8E5M2FNUZ(e5m2fnuz.encode(f, saturate))
}

// Float32 returns the value as a float32, exactly.
func (v Float8E5M2FNUZ) Float32() float32 { return e5m2fnuz.decode(uint8(v)) }

// Float4E2M1From converts f to Float4E2M1, rounding to nearest even. The
// format has no infinity, so a value out of range becomes ±6 whatever the
// saturate attribute says; NaN becomes 0x8 (-0), as ONNX's reference
// conversion gives.
func Float4E2M1From(f float64) Float4E2M1 { return Float4E2M1(e2m1.encode(f, true)) }

// Float32 returns the value as a float32, exactly. Only the low 4 bits
// are read.
func (v Float4E2M1) Float32() float32 { return e2m1.decode(uint8(v) & 0xf) }

// miniFloat describes a small binary floating-point format for encode and
// decode.
type miniFloat struct {
	man    int   // mantissa bits
	bias   int   // exponent bias
	sign   uint8 // the sign bit
	max    float64
	maxEnc uint8 // the encoding of max, without the sign
	// kind: how the format spells NaN, infinity and -0.
	kind miniKind
}

type miniKind uint8

const (
	kindFN   miniKind = iota // NaN is S.1..1.1..1, no infinity
	kindIEEE                 // exponent all ones: infinity or NaN
	kindFNUZ                 // 0x80 is NaN, no infinity, no -0
	kindNone                 // neither NaN nor infinity (float4)
)

var (
	e4m3fn   = &miniFloat{man: 3, bias: 7, sign: 0x80, max: 448, maxEnc: 0x7e, kind: kindFN}
	e4m3fnuz = &miniFloat{man: 3, bias: 8, sign: 0x80, max: 240, maxEnc: 0x7f, kind: kindFNUZ}
	e5m2     = &miniFloat{man: 2, bias: 15, sign: 0x80, max: 57344, maxEnc: 0x7b, kind: kindIEEE}
	e5m2fnuz = &miniFloat{man: 2, bias: 16, sign: 0x80, max: 57344, maxEnc: 0x7f, kind: kindFNUZ}
	e2m1     = &miniFloat{man: 1, bias: 1, sign: 0x08, max: 6, maxEnc: 0x7, kind: kindNone}
)

// nan returns the format's NaN with the given sign bits.
func (m *miniFloat) nan(sign uint8) uint8 {
	switch m.kind {
	case kindFN:
		return sign | 0x7f
	case kindIEEE:
		return sign | 0x7e
	case kindFNUZ:
		return 0x80
	}
	return m.sign // float4: -0, as ONNX's reference gives
}

// overflow returns what a value beyond the largest finite one becomes
// without saturation.
func (m *miniFloat) overflow(sign uint8) uint8 {
	switch m.kind {
	case kindIEEE:
		return sign | 0x7c
	case kindNone:
		return sign | m.maxEnc
	}
	return m.nan(sign)
}

// encode rounds f to the format, to nearest even.
func (m *miniFloat) encode(f float64, saturate bool) uint8 {
	var sign uint8
	if math.Signbit(f) {
		sign = m.sign
	}
	if f != f {
		return m.nan(sign)
	}
	a := math.Abs(f)
	if a > m.max && saturate {
		return sign | m.maxEnc
	}
	if math.IsInf(a, 0) {
		return m.overflow(sign)
	}
	emin := 1 - m.bias
	_, e := math.Frexp(a) // a = frac·2^e, frac in [0.5, 1)
	e = max(e-1, emin)
	// q is the spacing of the format's values around a; r counts them.
	q := math.Ldexp(1, e-m.man)
	r := math.RoundToEven(a / q)
	v := r * q
	switch {
	case v > m.max:
		if saturate {
			return sign | m.maxEnc
		}
		return m.overflow(sign)
	case r == 0:
		if m.kind == kindFNUZ {
			return 0
		}
		return sign
	case e == emin:
		// A subnormal, or 2^emin itself when r reached 1<<man: either way
		// r is the encoding (exponent field 0 or 1, mantissa r mod 2^man).
		return sign | uint8(r)
	}
	_, e = math.Frexp(v)
	e--
	mant := uint8(math.Ldexp(v, m.man-e)) &^ (1 << m.man)
	return sign | uint8(e+m.bias)<<m.man | mant
}

// decode returns the value of encoding b as a float32, exactly; a NaN
// keeps its sign bit where the format has one.
func (m *miniFloat) decode(b uint8) float32 {
	neg := b&m.sign != 0
	b &^= m.sign
	signedNaN := func() float32 {
		if neg {
			return -float32(math.NaN())
		}
		return float32(math.NaN())
	}
	switch m.kind {
	case kindFN:
		if b == 0x7f {
			return signedNaN()
		}
	case kindIEEE:
		if b == 0x7c {
			if neg {
				return float32(math.Inf(-1))
			}
			return float32(math.Inf(1))
		}
		if b > 0x7c {
			return signedNaN()
		}
	case kindFNUZ:
		if neg && b == 0 {
			return float32(math.NaN())
		}
	}
	exp := int(b >> m.man)
	mant := int(b & (1<<m.man - 1))
	var v float64
	if exp == 0 {
		v = math.Ldexp(float64(mant), 1-m.bias-m.man)
	} else {
		v = math.Ldexp(float64(1<<m.man|mant), exp-m.bias-m.man)
	}
	if neg {
		v = -v
	}
	return float32(v)
}

// LowFloat32 returns the value of b, an element of one of the 8- and
// 4-bit float types dt, as a float32, exactly; it returns NaN for other
// types.
func LowFloat32(dt DType, b uint8) float32 {
	switch dt {
	case F8E4M3FN:
		return Float8E4M3FN(b).Float32()
	case F8E4M3FNUZ:
		return Float8E4M3FNUZ(b).Float32()
	case F8E5M2:
		return Float8E5M2(b).Float32()
	case F8E5M2FNUZ:
		return Float8E5M2FNUZ(b).Float32()
	case F8E8M0:
		return Float8E8M0(b).Float32()
	case F4E2M1:
		return Float4E2M1(b).Float32()
	}
	return float32(math.NaN())
}
