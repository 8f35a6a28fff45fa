package artifacts

import (
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestDecodeTensor(t *testing.T) {
	f32 := pb(nil).varint(1, 2).varint(1, 2).varint(2, uint64(payload.Float32)).str(8, "x").bytes(9, packF32(1, 2, 3, 4))
	// Packed int64_data 5, -1, 7.
	i64 := pb(nil).varint(1, 3).varint(2, uint64(payload.Int64)).bytes(7,
		[]byte{0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x07})
	boolean := pb(nil).varint(1, 2).varint(2, uint64(payload.Bool)).bytes(5, []byte{0x01, 0x00})
	scalar := pb(nil).varint(2, uint64(payload.Float32)).float(4, 0.5)
	strs := pb(nil).varint(1, 2).varint(2, uint64(payload.String)).str(6, "ab").str(6, "")
	cases := []struct {
		name  string
		data  []byte
		shape []int
		dt    payload.DType
		raw   []byte
	}{
		{"float32 raw_data", f32, []int{2, 2}, payload.Float32, payload.AsBytes([]float32{1, 2, 3, 4})},
		{"int64 int64_data", i64, []int{3}, payload.Int64, payload.AsBytes([]int64{5, -1, 7})},
		{"bool int32_data", boolean, []int{2}, payload.Bool, []byte{1, 0}},
		{"scalar float_data", scalar, nil, payload.Float32, payload.AsBytes([]float32{0.5})},
		{"string string_data", strs, []int{2}, payload.String, payload.EncodeStrings([]string{"ab", ""})},
		// The 8-bit floats take a byte each; the 4- and 2-bit types are
		// packed in the file, low bits first, and one byte each in memory
		// (ADR 24), the signed ones sign-extended.
		{"float8e4m3fn raw_data", pb(nil).varint(1, 3).varint(2, uint64(payload.F8E4M3FN)).bytes(9, []byte{0x38, 0x7f, 0xfe}),
			[]int{3}, payload.F8E4M3FN, []byte{0x38, 0x7f, 0xfe}},
		{"float8e5m2 int32_data", pb(nil).varint(1, 2).varint(2, uint64(payload.F8E5M2)).bytes(5, []byte{0x3c, 0xfc, 0x01}),
			[]int{2}, payload.F8E5M2, []byte{0x3c, 0xfc}},
		{"int4 raw_data, odd count", pb(nil).varint(1, 3).varint(2, uint64(payload.I4)).bytes(9, []byte{0x87, 0x0f}),
			[]int{3}, payload.I4, []byte{7, 0xf8, 0xff}},
		{"uint4 int32_data", pb(nil).varint(1, 2).varint(1, 2).varint(2, uint64(payload.U4)).bytes(5, []byte{0xa9, 0x01, 0x21}),
			[]int{2, 2}, payload.U4, []byte{9, 10, 1, 2}},
		{"float4e2m1 raw_data", pb(nil).varint(1, 3).varint(2, uint64(payload.F4E2M1)).bytes(9, []byte{0xe2, 0x07}),
			[]int{3}, payload.F4E2M1, []byte{2, 0xe, 7}},
		{"int2 raw_data", pb(nil).varint(1, 5).varint(2, uint64(payload.I2)).bytes(9, []byte{0x39, 0x02}),
			[]int{5}, payload.I2, []byte{1, 0xfe, 0xff, 0, 0xfe}},
		{"uint2 int32_data", pb(nil).varint(1, 4).varint(2, uint64(payload.U2)).bytes(5, []byte{0xe4, 0x01}),
			[]int{4}, payload.U2, []byte{0, 1, 2, 3}},
		{"empty int4", pb(nil).varint(1, 0).varint(2, uint64(payload.I4)), []int{0}, payload.I4, []byte{}},
	}
	for _, c := range cases {
		got, err := DecodeTensor(c.data, "in.pb")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.DType != c.dt || !slices.Equal(got.Shape, c.shape) || string(got.Raw) != string(c.raw) {
			t.Errorf("%s: got %s %v % x, want %s %v % x", c.name, got.DType, got.Shape, got.Raw, c.dt, c.shape, c.raw)
		}
	}
}

func TestDecodeTensorErrors(t *testing.T) {
	cases := []struct {
		name  string
		data  []byte
		kind  error
		parts []string
	}{
		{"string count", pb(nil).varint(1, 2).varint(2, uint64(payload.String)).str(6, "a"), errInvalid, []string{"in.pb", "string_data has 1 values", "needs 2"}},
		{"string raw_data", pb(nil).varint(1, 1).varint(2, uint64(payload.String)).bytes(9, []byte("a")), errInvalid, []string{"in.pb", "string_data"}},
		{"unknown element type", pb(nil).varint(2, 27).bytes(9, []byte{1}), errUnsupported, []string{"element type 27"}},
		{"no data_type", pb(nil).varint(1, 1), errInvalid, []string{"no data_type"}},
		{"short raw_data", pb(nil).varint(1, 2).varint(2, uint64(payload.Float32)).bytes(9, packF32(1)), errInvalid, []string{"raw_data has 4 bytes"}},
		{"truncated", []byte{0x08}, errInvalid, []string{"in.pb", "truncated"}},
		{"int4 raw_data unpacked", pb(nil).varint(1, 3).varint(2, uint64(payload.I4)).bytes(9, []byte{1, 2, 3}), errInvalid, []string{"raw_data has 3 bytes", "needs 2"}},
		{"uint2 int32_data count", pb(nil).varint(1, 5).varint(2, uint64(payload.U2)).bytes(5, []byte{1}), errInvalid, []string{"int32_data has 1 values"}},
		{"float8 float_data", pb(nil).varint(1, 1).varint(2, uint64(payload.F8E4M3FN)).float(4, 1), errInvalid, []string{"float_data given"}},
		{"external data", pb(nil).varint(1, 1).varint(2, uint64(payload.Float32)).varint(14, 1).
			bytes(13, pb(nil).str(1, "location").str(2, "x.bin")), errInvalid, []string{"external data", "x.bin"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeTensor(c.data, "in.pb")
			wantErr(t, err, c.kind, c.parts...)
		})
	}
}
