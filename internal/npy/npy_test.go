package npy

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
	"github.com/x448/float16"
)

// fixture is a file numpy wrote and what it holds.
type fixture struct {
	file  string
	dtype payload.DType
	shape []int
	data  []byte
	// numpySave: numpy.save wrote it from a C-ordered little-endian
	// array, so Encode must reproduce it byte for byte.
	numpySave bool
}

func bytesOf[E payload.Elem](v ...E) []byte { return append([]byte{}, payload.AsBytes(v)...) }

func halfs(v ...float32) []byte {
	h := make([]float16.Float16, len(v))
	for i, x := range v {
		h[i] = float16.Fromfloat32(x)
	}
	return bytesOf(h...)
}

var fixtures = []fixture{
	{"v1_f4_2x3.npy", payload.Float32, []int{2, 3}, bytesOf[float32](-0.5, -0.25, 0, 0.25, 0.5, 0.75), true},
	{"v2_i8_3.npy", payload.Int64, []int{3}, bytesOf[int64](-1, 0, 1<<40), false},
	{"v3_f2_2x2.npy", payload.Float16, []int{2, 2}, halfs(0.5, -2, 65504, 1e-3), false},
	{"v1_bool_4.npy", payload.Bool, []int{4}, bytesOf(true, false, false, true), true},
	{"v1_u1_scalar.npy", payload.Uint8, []int{}, []byte{7}, true},
	{"v1_f8_be_2x2.npy", payload.Float64, []int{2, 2}, bytesOf(1.5, -2.25, 3, 1e300), false},
	{"v1_i4_fortran_2x3x2.npy", payload.Int32, []int{2, 3, 2}, bytesOf[int32](0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), false},
	{"v1_f4_0x3.npy", payload.Float32, []int{0, 3}, []byte{}, true},
}

func TestReadNumpyFiles(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.file, func(t *testing.T) {
			d, err := ReadFile(filepath.Join("testdata", f.file), 0)
			if err != nil {
				t.Fatalf("ReadFile: %v", err)
			}
			if d.DType != f.dtype || !cmp.Equal(d.Shape, f.shape) || !bytes.Equal(d.Data, f.data) {
				t.Errorf("got %s %v % x, want %s %v % x", d.DType, d.Shape, d.Data, f.dtype, f.shape, f.data)
			}
			if !payload.IsAligned(d.Data, 8) {
				t.Error("data is not 8-byte aligned")
			}
		})
	}
}

func TestEncodeMatchesNumpy(t *testing.T) {
	for _, f := range fixtures {
		if !f.numpySave {
			continue
		}
		t.Run(f.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", f.file))
			if err != nil {
				t.Fatalf("os.ReadFile: %v", err)
			}
			got, err := Encode(payload.Dynamic{DType: f.dtype, Shape: f.shape, Data: f.data})
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Encode gives\n%q\nnumpy.save wrote\n%q", got, want)
			}
		})
	}
}

var roundTripCases = []payload.Dynamic{
	{DType: payload.Float32, Shape: []int{1, 3, 2}, Data: bytesOf[float32](1, 2, 3, float32(math.Inf(-1)), float32(math.NaN()), -0)},
	{DType: payload.Float64, Shape: []int{2}, Data: bytesOf(math.Pi, -1e-300)},
	{DType: payload.Float16, Shape: []int{3}, Data: halfs(1, -1, 0.1)},
	{DType: payload.Int8, Shape: []int{2}, Data: bytesOf[int8](-128, 127)},
	{DType: payload.Int16, Shape: []int{2}, Data: bytesOf[int16](-300, 300)},
	{DType: payload.Int32, Shape: []int{1, 1}, Data: bytesOf[int32](-1 << 31)},
	{DType: payload.Int64, Shape: []int{}, Data: bytesOf[int64](1 << 62)},
	{DType: payload.Uint8, Shape: []int{4}, Data: []byte{0, 1, 254, 255}},
	{DType: payload.Uint16, Shape: []int{1}, Data: bytesOf[uint16](65535)},
	{DType: payload.Uint32, Shape: []int{1}, Data: bytesOf[uint32](1 << 31)},
	{DType: payload.Uint64, Shape: []int{1}, Data: bytesOf[uint64](1 << 63)},
	{DType: payload.Bool, Shape: []int{2, 1}, Data: bytesOf(false, true)},
	{DType: payload.Float32, Shape: []int{2, 0, 5}, Data: []byte{}},
}

func TestRoundTrip(t *testing.T) {
	cases := roundTripCases

	for _, c := range cases {
		t.Run(c.DType.String(), func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, c); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if buf.Len()%align != len(c.Data)%align {
				t.Errorf("data does not start on a %d-byte boundary", align)
			}
			d, err := Read(&buf, 0)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if d.DType != c.DType || !cmp.Equal(d.Shape, c.Shape) || !bytes.Equal(d.Data, c.Data) {
				t.Errorf("got %s %v % x, want %s %v % x", d.DType, d.Shape, d.Data, c.DType, c.Shape, c.Data)
			}
		})
	}
}

// file builds a .npy file by hand: magic, version, header length, header,
// data.
func file(major byte, header string, data []byte) []byte {
	b := []byte(magic)
	b = append(b, major, 0)
	if major == 1 {
		b = append(b, byte(len(header)), byte(len(header)>>8))
	} else {
		n := len(header)
		b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
	b = append(b, header...)
	return append(b, data...)
}

// Headers that NumPy's reader accepts but numpy.save does not write.
func TestDecodeHandMadeHeaders(t *testing.T) {
	one := bytesOf[float32](1)
	cases := []struct {
		name   string
		b      []byte
		dtype  payload.DType
		shape  []int
		data   []byte
		reason string
	}{
		{"unpadded", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", one), payload.Float32, []int{1}, one, ""},
		{"keys reordered", file(1, "{'shape': (1,), 'fortran_order': False, 'descr': '<f4'}\n", one), payload.Float32, []int{1}, one, ""},
		{"double quotes", file(1, `{"descr": "<f4", "fortran_order": False, "shape": (1,)}`+"\n", one), payload.Float32, []int{1}, one, ""},
		{"python 2 longs", file(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (1L, 2L), }", bytesOf[int16](5, -5)), payload.Int16, []int{1, 2}, bytesOf[int16](5, -5), ""},
		{"spaces everywhere", file(2, " { 'descr' : '=u2' , 'fortran_order' : False , 'shape' : ( 2 , ) , } \n", bytesOf[uint16](1, 2)), payload.Uint16, []int{2}, bytesOf[uint16](1, 2), ""},
		{"bool question mark", file(3, "{'descr': '?', 'fortran_order': False, 'shape': (2,), }", []byte{0, 9}), payload.Bool, []int{2}, []byte{0, 1}, ""},
		{"big-endian int32", file(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }", []byte{0, 0, 1, 2}), payload.Int32, []int{1}, bytesOf[int32](258), ""},
		{"fortran 2-D", file(1, "{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }", []byte{1, 4, 2, 5, 3, 6}), payload.Uint8, []int{2, 3}, []byte{1, 2, 3, 4, 5, 6}, ""},
		{"fortran 1-D", file(1, "{'descr': '|u1', 'fortran_order': True, 'shape': (3,), }", []byte{1, 2, 3}), payload.Uint8, []int{3}, []byte{1, 2, 3}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Decode(c.b)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if d.DType != c.dtype || !cmp.Equal(d.Shape, c.shape) || !bytes.Equal(d.Data, c.data) {
				t.Errorf("got %s %v % x, want %s %v % x", d.DType, d.Shape, d.Data, c.dtype, c.shape, c.data)
			}
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	hdr := func(s string) string { return "{'descr': '<f4', 'fortran_order': False, 'shape': " + s + ", }" }
	one := bytesOf[float32](1)
	cases := []struct {
		name string
		b    []byte
		kind error
		msg  string
	}{
		{"empty", nil, errs.InvalidArtifact, "magic"},
		{"not npy", []byte("PK\x03\x04 zip file"), errs.InvalidArtifact, "magic"},
		{"version 4", file(1, hdr("(1,)"), one)[:6], errs.InvalidArtifact, "magic"},
		{"unknown version", append([]byte(magic), 4, 0, 0, 0), errs.Unsupported, "version 4.0"},
		{"truncated length", append([]byte(magic), 2, 0, 1), errs.InvalidArtifact, "header length"},
		{"header past end", file(1, hdr("(1,)"), nil)[:20], errs.InvalidArtifact, "header of"},
		{"huge v2 header length", append([]byte(magic), 2, 0, 0xff, 0xff, 0xff, 0xff), errs.InvalidArtifact, "header of"},
		{"short data", file(1, hdr("(2,)"), one), errs.InvalidArtifact, "needs 8 data bytes"},
		{"trailing data", file(1, hdr("(1,)"), append(one, 0)), errs.InvalidArtifact, "needs 4 data bytes"},
		{"huge shape", file(1, hdr("(1000000000, 1000000000, 1000000000)"), one), errs.InvalidArtifact, "more bytes than memory"},
		{"large shape", file(1, hdr("(1000000000, 1000000000)"), one), errs.InvalidArtifact, "needs 4000000000000000000 data bytes"},
		{"overflowing dim", file(1, hdr("(99999999999999999999999,)"), one), errs.InvalidArtifact, "too large"},
		{"negative dim", file(1, hdr("(-1,)"), one), errs.InvalidArtifact, "non-negative"},
		{"int not tuple", file(1, hdr("(1)"), one), errs.InvalidArtifact, "trailing comma"},
		{"list shape", file(1, hdr("[1]"), one), errs.InvalidArtifact, "tuple"},
		{"complex", file(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", one), errs.Unsupported, "<c8"},
		{"object", file(1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", one), errs.Unsupported, "|O"},
		{"structured", file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", one), errs.Unsupported, "structured"},
		{"no byte order for f4", file(1, "{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }", one), errs.InvalidArtifact, "1-byte"},
		{"missing key", file(1, "{'descr': '<f4', 'shape': (1,), }", one), errs.InvalidArtifact, "fortran_order"},
		{"extra key", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", one), errs.InvalidArtifact, `"x"`},
		{"duplicate key", file(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", one), errs.InvalidArtifact, "twice"},
		{"bad fortran", file(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", one), errs.InvalidArtifact, "True or False"},
		{"text after", file(1, hdr("(1,)")+" x", one), errs.InvalidArtifact, "after the dictionary"},
		{"unterminated", file(1, "{'descr: ", one), errs.InvalidArtifact, "unterminated"},
		{"escape", file(1, `{'de\scr': '<f4'}`, one), errs.InvalidArtifact, "escapes"},
		{"non-ascii v1", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\xff", one), errs.InvalidArtifact, "not ASCII"},
		{"too many dims", file(1, hdr("("+strings.Repeat("1, ", maxRank+1)+")"), one), errs.InvalidArtifact, "dimensions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.b)
			if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want %v containing %q", err, c.kind, c.msg)
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	cases := []struct {
		name string
		d    payload.Dynamic
		kind error
	}{
		{"bfloat16", payload.Dynamic{DType: payload.BF16, Shape: []int{1}, Data: []byte{0, 0}}, errs.Unsupported},
		{"string", payload.Dynamic{DType: payload.String, Shape: []int{1}}, errs.Unsupported},
		{"short data", payload.Dynamic{DType: payload.Float32, Shape: []int{2}, Data: make([]byte, 4)}, errs.ShapeMismatch},
		{"negative dim", payload.Dynamic{DType: payload.Float32, Shape: []int{-1}}, errs.ShapeMismatch},
		{"rank", payload.Dynamic{DType: payload.Uint8, Shape: make([]int, maxRank+1)}, errs.Unsupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Encode(c.d); !errors.Is(err, c.kind) {
				t.Errorf("got %v, want %v", err, c.kind)
			}
		})
	}
}

func TestReadLimits(t *testing.T) {
	b := file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", bytesOf[float32](1))
	if _, err := Read(bytes.NewReader(b), int64(len(b)-1)); !errors.Is(err, errs.ResourceUnavailable) {
		t.Errorf("file over the limit: got %v", err)
	}
	if _, err := Read(bytes.NewReader(b), int64(len(b))); err != nil {
		t.Errorf("file at the limit: %v", err)
	}
	_, err := ReadFile(filepath.Join(t.TempDir(), "missing.npy"), 0)
	if !errors.Is(err, errs.InvalidArtifact) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
}
