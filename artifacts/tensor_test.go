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
		{"string", pb(nil).varint(1, 1).varint(2, uint64(payload.String)).str(6, "a"), errUnsupported, []string{"in.pb", "string"}},
		{"unknown element type", pb(nil).varint(2, 27).bytes(9, []byte{1}), errUnsupported, []string{"element type 27"}},
		{"no data_type", pb(nil).varint(1, 1), errInvalid, []string{"no data_type"}},
		{"short raw_data", pb(nil).varint(1, 2).varint(2, uint64(payload.Float32)).bytes(9, packF32(1)), errInvalid, []string{"raw_data has 4 bytes"}},
		{"truncated", []byte{0x08}, errInvalid, []string{"in.pb", "truncated"}},
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
