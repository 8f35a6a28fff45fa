package payload

import "math"

// Float8E8M0 is an unsigned power of two, 2^(e-127) for the byte e, the
// scale of the OCP microscaling formats: it has no sign, no mantissa and
// no zero, and 0xff is NaN.
type Float8E8M0 uint8

// E8M0Rounding says how a conversion to Float8E8M0 rounds a value that is
// not a power of two: Cast's round_mode attribute.
type E8M0Rounding uint8

// The rounding modes of Cast's round_mode attribute.
const (
	// E8M0Up rounds away from zero, to the next power of two ("up", the
	// default).
	E8M0Up E8M0Rounding = iota
	// E8M0Down rounds toward zero ("down").
	E8M0Down
	// E8M0Nearest rounds to the nearest power of two, halfway up
	// ("nearest").
	E8M0Nearest
)

// Float8E8M0From converts f to Float8E8M0 as ONNX's reference does: the
// sign is dropped, infinities and NaN become NaN, zero and the float32
// subnormals have exponent 0, and a value whose mantissa is not zero is
// rounded by mode. A value that would round past 2^127 stays 2^127 when
// saturate is true and becomes NaN otherwise.
func Float8E8M0From(f float32, saturate bool, mode E8M0Rounding) Float8E8M0 {
	b := math.Float32bits(f)
	exp := b >> 23 & 0xff
	if exp == 0xff {
		return 0xff
	}
	up := false
	switch mode {
	case E8M0Up:
		up = b&0x7fffff != 0
	case E8M0Nearest:
		// The guard bit (half the step) decides; at exponent 0 a bare
		// guard bit is a tie that stays down.
		up = b&0x400000 != 0 && (b&0x3fffff != 0 || exp > 0)
	}
	if up && !(saturate && exp == 0xfe) {
		exp++
	}
	return Float8E8M0(exp)
}

// Float32 returns the value as a float32, exactly: 2^(e-127), or NaN for
// 0xff.
func (v Float8E8M0) Float32() float32 {
	switch v {
	case 0xff:
		return float32(math.NaN())
	case 0:
		return math.Float32frombits(0x400000) // 2^-127, a subnormal
	}
	return math.Float32frombits(uint32(v) << 23)
}
