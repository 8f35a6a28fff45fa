package payload

import (
	"math"
	"testing"

	"github.com/x448/float16"
)

var (
	inf  = math.Inf(1)
	nan  = math.NaN()
	negz = math.Copysign(0, -1)
)

// lowFormats names each 8- and 4-bit float type's conversions.
var lowFormats = []struct {
	dt     DType
	codes  int // 256, or 16 for float4
	encode func(f float64, sat bool) uint8
}{
	{F8E4M3FN, 256, func(f float64, sat bool) uint8 { return uint8(Float8E4M3FNFrom(f, sat)) }},
	{F8E4M3FNUZ, 256, func(f float64, sat bool) uint8 { return uint8(Float8E4M3FNUZFrom(f, sat)) }},
	{F8E5M2, 256, func(f float64, sat bool) uint8 { return uint8(Float8E5M2From(f, sat)) }},
	{F8E5M2FNUZ, 256, func(f float64, sat bool) uint8 { return uint8(Float8E5M2FNUZFrom(f, sat)) }},
	{F4E2M1, 16, func(f float64, _ bool) uint8 { return uint8(Float4E2M1From(f)) }},
}

// TestLowFloatDecode checks values of each format against the formats'
// definitions (OCP 8-bit floating point, ONNX's float8 and float4 tables).
func TestLowFloatDecode(t *testing.T) {
	cases := []struct {
		dt   DType
		code uint8
		want float64
	}{
		{F8E4M3FN, 0x00, 0}, {F8E4M3FN, 0x80, negz}, {F8E4M3FN, 0x01, 0x1p-9},
		{F8E4M3FN, 0x07, 7 * 0x1p-9}, {F8E4M3FN, 0x08, 0x1p-6}, {F8E4M3FN, 0x38, 1},
		{F8E4M3FN, 0x3c, 1.5}, {F8E4M3FN, 0x40, 2}, {F8E4M3FN, 0x7e, 448},
		{F8E4M3FN, 0xfe, -448}, {F8E4M3FN, 0x77, 240}, {F8E4M3FN, 0x7f, nan}, {F8E4M3FN, 0xff, nan},

		{F8E4M3FNUZ, 0x00, 0}, {F8E4M3FNUZ, 0x80, nan}, {F8E4M3FNUZ, 0x01, 0x1p-10},
		{F8E4M3FNUZ, 0x08, 0x1p-7}, {F8E4M3FNUZ, 0x40, 1}, {F8E4M3FNUZ, 0x7f, 240},
		{F8E4M3FNUZ, 0xff, -240}, {F8E4M3FNUZ, 0xc0, -1},

		{F8E5M2, 0x00, 0}, {F8E5M2, 0x80, negz}, {F8E5M2, 0x01, 0x1p-16}, {F8E5M2, 0x04, 0x1p-14},
		{F8E5M2, 0x3c, 1}, {F8E5M2, 0x3e, 1.5}, {F8E5M2, 0x7b, 57344}, {F8E5M2, 0xfb, -57344},
		{F8E5M2, 0x7c, inf}, {F8E5M2, 0xfc, -inf}, {F8E5M2, 0x7d, nan}, {F8E5M2, 0x7e, nan},
		{F8E5M2, 0x7f, nan}, {F8E5M2, 0xfe, nan},

		{F8E5M2FNUZ, 0x00, 0}, {F8E5M2FNUZ, 0x80, nan}, {F8E5M2FNUZ, 0x01, 0x1p-17},
		{F8E5M2FNUZ, 0x40, 1}, {F8E5M2FNUZ, 0x44, 2}, {F8E5M2FNUZ, 0x7f, 57344}, {F8E5M2FNUZ, 0x7c, 32768}, {F8E5M2FNUZ, 0xff, -57344},

		{F4E2M1, 0x0, 0}, {F4E2M1, 0x1, 0.5}, {F4E2M1, 0x2, 1}, {F4E2M1, 0x3, 1.5},
		{F4E2M1, 0x4, 2}, {F4E2M1, 0x5, 3}, {F4E2M1, 0x6, 4}, {F4E2M1, 0x7, 6},
		{F4E2M1, 0x8, negz}, {F4E2M1, 0xb, -1.5}, {F4E2M1, 0xf, -6},
		{F4E2M1, 0xf7, 6}, // only the low bits count

		{F8E8M0, 0, 0x1p-127}, {F8E8M0, 1, 0x1p-126}, {F8E8M0, 124, 0.125}, {F8E8M0, 127, 1},
		{F8E8M0, 128, 2}, {F8E8M0, 254, 0x1p127}, {F8E8M0, 255, nan},
	}
	for _, c := range cases {
		got := float64(LowFloat32(c.dt, c.code))
		if !sameFloat(got, c.want) {
			t.Errorf("%s %#02x: got %v, want %v", c.dt, c.code, got, c.want)
		}
	}
	if got := LowFloat32(Float32, 1); !math.IsNaN(float64(got)) {
		t.Errorf("LowFloat32(float32, 1) = %v, want NaN", got)
	}
}

// TestFloat8E5M2IsHalfUpperByte checks every non-NaN float8e5m2 value
// against float16 with the same upper byte and a zero lower byte, which
// IEEE 754 defines independently.
func TestFloat8E5M2IsHalfUpperByte(t *testing.T) {
	for c := range 256 {
		h := float16.Frombits(uint16(c) << 8)
		if h.IsNaN() {
			continue
		}
		got, want := float64(Float8E5M2(c).Float32()), float64(h.Float32())
		if !sameFloat(got, want) {
			t.Errorf("float8e5m2 %#02x = %v, want %v (float16 %#04x)", c, got, want, uint16(c)<<8)
		}
	}
}

// TestLowFloatEncode checks conversions to each format: rounding to
// nearest even (ties, subnormals), NaN, infinities, signed zero and
// overflow with and without saturation.
func TestLowFloatEncode(t *testing.T) {
	type row struct {
		f        float64
		sat, raw uint8 // with saturate, without
	}
	cases := map[DType][]row{
		F8E4M3FN: {
			{1, 0x38, 0x38}, {-2, 0xc0, 0xc0}, {448, 0x7e, 0x7e},
			{464, 0x7e, 0x7e},   // the tie between 448 and 480 goes to even 448
			{464.5, 0x7e, 0x7f}, // past the tie: 480, out of range
			{1e6, 0x7e, 0x7f}, {-1e6, 0xfe, 0xff},
			{inf, 0x7e, 0x7f}, {-inf, 0xfe, 0xff}, {nan, 0x7f, 0x7f},
			{0, 0x00, 0x00}, {negz, 0x80, 0x80}, {-1e-7, 0x80, 0x80},
			{0x1p-10, 0x00, 0x00},               // half the smallest subnormal: tie to 0
			{0x1p-10 * 1.0001, 0x01, 0x01},      // just above it
			{3 * 0x1p-10, 0x02, 0x02},           // 1.5 subnormal steps: tie to even 2
			{15 * 0x1p-10, 0x08, 0x08},          // tie between 7·2^-9 and 2^-6
			{1.0625, 0x38, 0x38},                // tie between 1 and 1.125: even 1
			{1.1875, 0x3a, 0x3a},                // tie between 1.125 and 1.25: even 1.25
			{1.0626, 0x39, 0x39},                // above the tie
			{0.479, 0x2f, 0x2f},                 // 0.46875
			{-0x1p-6, 0x88, 0x88},               // the smallest normal, negative
			{float64(float32(0.3)), 0x2a, 0x2a}, // 0.3125
		},
		F8E4M3FNUZ: {
			{1, 0x40, 0x40}, {-1, 0xc0, 0xc0}, {240, 0x7f, 0x7f},
			{247.9, 0x7f, 0x7f}, // rounds down to 240
			{248, 0x7f, 0x80},   // the tie between 240 and 256 goes to 256: out of range
			{1e6, 0x7f, 0x80}, {-1e6, 0xff, 0x80},
			{inf, 0x7f, 0x80}, {-inf, 0xff, 0x80}, {nan, 0x80, 0x80}, {-nan, 0x80, 0x80},
			{0, 0x00, 0x00}, {negz, 0x00, 0x00}, {-1e-7, 0x00, 0x00}, // no negative zero
			{0x1p-11, 0x00, 0x00}, {3 * 0x1p-11, 0x02, 0x02}, {-3 * 0x1p-11, 0x82, 0x82},
			{0.479, 0x37, 0x37},
		},
		F8E5M2: {
			{1, 0x3c, 0x3c}, {57344, 0x7b, 0x7b}, {60000, 0x7b, 0x7b},
			{61440, 0x7b, 0x7c}, // the tie between 57344 and 65536 goes to 65536: infinity
			{1e6, 0x7b, 0x7c}, {-1e6, 0xfb, 0xfc},
			{inf, 0x7b, 0x7c}, {-inf, 0xfb, 0xfc}, {nan, 0x7e, 0x7e},
			{0, 0x00, 0x00}, {negz, 0x80, 0x80}, {-1e-7, 0x80, 0x80},
			{1.125, 0x3c, 0x3c}, {1.375, 0x3e, 0x3e}, {1.126, 0x3d, 0x3d},
			{0x1p-17, 0x00, 0x00}, {3 * 0x1p-17, 0x02, 0x02}, {0x1p-16, 0x01, 0x01},
		},
		F8E5M2FNUZ: {
			{1, 0x40, 0x40}, {57344, 0x7f, 0x7f},
			{61440, 0x7f, 0x80}, {inf, 0x7f, 0x80}, {-inf, 0xff, 0x80}, {nan, 0x80, 0x80},
			{negz, 0x00, 0x00}, {-1e-7, 0x00, 0x00}, {0x1p-18, 0x00, 0x00}, {3 * 0x1p-18, 0x02, 0x02},
			{0.479, 0x3c, 0x3c},
		},
		F4E2M1: {
			{0.25, 0x0, 0x0}, {0.26, 0x1, 0x1}, {0.75, 0x2, 0x2}, {1.25, 0x2, 0x2},
			{1.75, 0x4, 0x4}, {2.5, 0x4, 0x4}, {3.5, 0x6, 0x6}, {5, 0x6, 0x6},
			{5.1, 0x7, 0x7}, {-3.5, 0xe, 0xe}, {7, 0x7, 0x7}, {1e6, 0x7, 0x7}, {-8, 0xf, 0xf},
			{inf, 0x7, 0x7}, {-inf, 0xf, 0xf}, {nan, 0x8, 0x8},
			{negz, 0x8, 0x8}, {-0.1, 0x8, 0x8}, {0.01, 0x0, 0x0}, {1.05, 0x2, 0x2},
		},
	}
	for _, fm := range lowFormats {
		for _, c := range cases[fm.dt] {
			if got := fm.encode(c.f, true); got != c.sat {
				t.Errorf("%s from %v, saturate: got %#02x, want %#02x", fm.dt, c.f, got, c.sat)
			}
			if got := fm.encode(c.f, false); got != c.raw {
				t.Errorf("%s from %v, no saturate: got %#02x, want %#02x", fm.dt, c.f, got, c.raw)
			}
		}
	}
}

// TestLowFloatRoundTrip converts every finite value of each format back,
// and the midpoint of every two neighbours, which must go to the one with
// the even encoding, and points just beside it, which go to the nearer.
func TestLowFloatRoundTrip(t *testing.T) {
	for _, fm := range lowFormats {
		type val struct {
			code uint8
			v    float64
		}
		var pos []val
		for c := range fm.codes {
			v := float64(LowFloat32(fm.dt, uint8(c)))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			want := uint8(c)
			if v == 0 && (fm.dt == F8E4M3FNUZ || fm.dt == F8E5M2FNUZ) {
				want = 0
			}
			if got := fm.encode(v, false); got != want {
				t.Errorf("%s: %v (%#02x) converts back to %#02x", fm.dt, v, c, got)
			}
			if !math.Signbit(v) {
				pos = append(pos, val{uint8(c), v})
			}
		}
		for i := 1; i < len(pos); i++ {
			lo, hi := pos[i-1], pos[i]
			if hi.v <= lo.v {
				t.Fatalf("%s: values not ascending at %#02x", fm.dt, hi.code)
			}
			mid := (lo.v + hi.v) / 2
			even := lo.code
			if lo.code&1 != 0 {
				even = hi.code
			}
			if got := fm.encode(mid, true); got != even {
				t.Errorf("%s: tie %v between %#02x and %#02x: got %#02x, want %#02x", fm.dt, mid, lo.code, hi.code, got, even)
			}
			if got := fm.encode(math.Nextafter(mid, 0), true); got != lo.code {
				t.Errorf("%s: just below %v: got %#02x, want %#02x", fm.dt, mid, got, lo.code)
			}
			if got := fm.encode(math.Nextafter(mid, inf), true); got != hi.code {
				t.Errorf("%s: just above %v: got %#02x, want %#02x", fm.dt, mid, got, hi.code)
			}
		}
	}
}

func TestFloat8E8M0From(t *testing.T) {
	up, down, near := E8M0Up, E8M0Down, E8M0Nearest
	cases := []struct {
		f    float32
		sat  bool
		mode E8M0Rounding
		want uint8
	}{
		{1, true, up, 127}, {2, true, up, 128}, {1.1, true, up, 128}, {0.124, true, up, 124},
		{0.25, true, up, 125}, {8, true, up, 130}, {-2, true, up, 128}, {-3, true, up, 129},
		{0, true, up, 0}, {float32(negz), true, up, 0},
		{float32(inf), true, up, 255}, {float32(-inf), true, up, 255}, {float32(nan), true, up, 255},
		{0x1.8p127, true, up, 254}, {0x1.8p127, false, up, 255}, {0x1p127, false, up, 254},
		{0x1p-127, true, up, 1}, // a float32 subnormal has a mantissa: it rounds up
		{1.9, true, down, 127}, {3, true, down, 128}, {0x1.8p127, false, down, 254}, {0x1p-140, true, down, 0},
		{1.4, true, near, 127}, {1.5, true, near, 128}, {1.6, true, near, 128}, {0.7, true, near, 126},
		{0x1.8p127, true, near, 254}, {0x1.8p127, false, near, 255}, {0x1.7p127, false, near, 254},
		{0x1p-127, true, near, 0},   // exponent 0, a bare guard bit: stays down
		{0x1.8p-127, true, near, 1}, // guard and round bits: up
	}
	for _, c := range cases {
		if got := Float8E8M0From(c.f, c.sat, c.mode); uint8(got) != c.want {
			t.Errorf("Float8E8M0From(%v, saturate %v, mode %d) = %d, want %d", c.f, c.sat, c.mode, got, c.want)
		}
	}
	for e := range 255 {
		if got := Float8E8M0From(Float8E8M0(e).Float32(), false, down); int(got) != e {
			t.Errorf("Float8E8M0 %d round trip: got %d", e, got)
		}
	}
}

func TestSmallInts(t *testing.T) {
	for b := range 256 {
		want4 := int8(b & 0xf)
		if want4 > 7 {
			want4 -= 16
		}
		want2 := int8(b & 0x3)
		if want2 > 1 {
			want2 -= 4
		}
		if got := Int4(int8(uint8(b))).Int8(); got != want4 {
			t.Errorf("Int4(%#02x).Int8() = %d, want %d", b, got, want4)
		}
		if got := Int2(int8(uint8(b))).Int8(); got != want2 {
			t.Errorf("Int2(%#02x).Int8() = %d, want %d", b, got, want2)
		}
		if got := Uint4(b).Uint8(); got != uint8(b&0xf) {
			t.Errorf("Uint4(%#02x).Uint8() = %d, want %d", b, got, b&0xf)
		}
		if got := Uint2(b).Uint8(); got != uint8(b&0x3) {
			t.Errorf("Uint2(%#02x).Uint8() = %d, want %d", b, got, b&0x3)
		}
	}
}

func TestPackUnpack(t *testing.T) {
	cases := []struct {
		dt       DType
		elems    []byte // one byte an element
		packed   []byte
		unpacked []byte // what Unpack gives back, when not elems
	}{
		// ONNX's test_cast_FLOAT_to_INT4: -8..7 then wrapping.
		{I4, []byte{7, 0xf8, 0xf9, 0xfa}, []byte{0x87, 0xa9}, nil},
		{I4, []byte{1, 0xff, 3}, []byte{0xf1, 0x03}, nil}, // odd count: zero padding
		{U4, []byte{15, 0, 9}, []byte{0x0f, 0x09}, nil},
		{U4, []byte{0x1f, 0x20}, []byte{0x0f}, []byte{0x0f, 0x00}}, // high bits dropped
		{F4E2M1, []byte{1, 0, 2, 0xe, 0xf}, []byte{0x01, 0xe2, 0x0f}, nil},
		// ONNX's test_cast_FLOAT_to_UINT2 and INT2: 7 elements.
		{U2, []byte{1, 2, 3, 0, 1, 2, 3}, []byte{0x39, 0x39}, nil},
		{I2, []byte{1, 0xfe, 0xff, 0, 1, 0xfe, 0xff}, []byte{0x39, 0x39}, nil},
		{Uint8, []byte{1, 2, 3}, []byte{1, 2, 3}, nil},
	}
	for _, c := range cases {
		if n := PackedLen(c.dt, len(c.elems)); n != len(c.packed) {
			t.Errorf("PackedLen(%s, %d) = %d, want %d", c.dt, len(c.elems), n, len(c.packed))
			continue
		}
		got := make([]byte, len(c.packed))
		for i := range got {
			got[i] = 0xaa // Pack must clear what it does not set
		}
		Pack(c.dt, got, c.elems)
		if string(got) != string(c.packed) {
			t.Errorf("Pack(%s, % x) = % x, want % x", c.dt, c.elems, got, c.packed)
		}
		want := c.unpacked
		if want == nil {
			want = c.elems
		}
		back := make([]byte, len(c.elems))
		Unpack(c.dt, back, c.packed)
		if string(back) != string(want) {
			t.Errorf("Unpack(%s, % x) = % x, want % x", c.dt, c.packed, back, want)
		}
	}
}

func TestLowDTypes(t *testing.T) {
	cases := []struct {
		got, want  DType
		name       string
		size, bits int
	}{
		{DTypeOf[Float8E4M3FN](), F8E4M3FN, "float8e4m3fn", 1, 8},
		{DTypeOf[Float8E4M3FNUZ](), F8E4M3FNUZ, "float8e4m3fnuz", 1, 8},
		{DTypeOf[Float8E5M2](), F8E5M2, "float8e5m2", 1, 8},
		{DTypeOf[Float8E5M2FNUZ](), F8E5M2FNUZ, "float8e5m2fnuz", 1, 8},
		{DTypeOf[Float8E8M0](), F8E8M0, "float8e8m0", 1, 8},
		{DTypeOf[Float4E2M1](), F4E2M1, "float4e2m1", 1, 4},
		{DTypeOf[Uint4](), U4, "uint4", 1, 4},
		{DTypeOf[Int4](), I4, "int4", 1, 4},
		{DTypeOf[Uint2](), U2, "uint2", 1, 2},
		{DTypeOf[Int2](), I2, "int2", 1, 2},
		{DTypeOf[float32](), Float32, "float32", 4, 32},
	}
	for _, c := range cases {
		if c.got != c.want || c.got.String() != c.name || c.got.Size() != c.size || c.got.Bits() != c.bits || !c.got.Valid() {
			t.Errorf("%d: got %v (%q, size %d, %d bits, valid %v), want %v (%q, size %d, %d bits)",
				int(c.want), c.got, c.got.String(), c.got.Size(), c.got.Bits(), c.got.Valid(), c.want, c.name, c.size, c.bits)
		}
		if c.want != Float32 && c.want.IsFloat() {
			t.Errorf("%v.IsFloat() = true, want false: a storage format", c.want)
		}
	}
}

// sameFloat reports whether a and b are the same value, NaN matching NaN
// and the zeros told apart by sign.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}
