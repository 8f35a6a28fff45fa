package cpu

import (
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// rawIn returns a rank-1 tensor of dt holding the bytes b, one element a
// byte (the small types of ADR 24).
func rawIn(dt payload.DType, b ...byte) *tensor {
	t := &tensor{dt: dt, shape: []int{len(b)}, data: alignedBytes(len(b))}
	copy(t.data, b)
	return t
}

// castCase is one Cast run: its input, attributes and wanted output, as
// bytes for the small types and as values for the others.
type castCase struct {
	name  string
	opset int64
	attrs []model.Attr
	in    *tensor
	to    payload.DType
	bytes []byte    // want, for a one-byte output type
	vals  []float64 // want, for the others
}

func TestCastSmallTypes(t *testing.T) {
	f32 := func(v ...float32) *tensor { return mk([]int{len(v)}, v) }
	inf, nan := math.Inf(1), math.NaN()
	negz := math.Copysign(0, -1)
	noSat := []model.Attr{aInt("saturate", 0)}
	cases := []castCase{
		{name: "float32 to e4m3fn", in: f32(1, 448, 464, 500, float32(inf), float32(-inf), float32(nan), float32(negz), 0x1p-10, 3*0x1p-10, 0.3),
			to: payload.F8E4M3FN, bytes: []byte{0x38, 0x7e, 0x7e, 0x7e, 0x7e, 0xfe, 0x7f, 0x80, 0x00, 0x02, 0x2a}},
		{name: "float32 to e4m3fn, no saturate", opset: 19, attrs: noSat, in: f32(1, 448, 464, 500, float32(inf), float32(-inf), float32(nan), -1e6),
			to: payload.F8E4M3FN, bytes: []byte{0x38, 0x7e, 0x7e, 0x7f, 0x7f, 0xff, 0x7f, 0xff}},
		{name: "saturate ignored before 19", opset: 18, attrs: noSat, in: f32(500, float32(-inf)),
			to: payload.F8E4M3FN, bytes: []byte{0x7e, 0xfe}},
		// 1.125+2^-40 is above the tie between 1 and 1.25; through float32
		// it would become the tie and round to 1.
		{name: "float64 to e5m2, rounding once", in: mk([]int{4}, []float64{1, 61440, -inf, 1.125 + 0x1p-40}),
			to: payload.F8E5M2, bytes: []byte{0x3c, 0x7b, 0xfb, 0x3d}},
		{name: "float64 to e5m2, no saturate", opset: 21, attrs: noSat, in: mk([]int{3}, []float64{61440, -inf, -1e-9}),
			to: payload.F8E5M2, bytes: []byte{0x7c, 0xfc, 0x80}},
		{name: "float16 to e4m3fnuz", in: mk([]int{4}, ewMap([]float64{1, negz, 300, nan}, f16)),
			to: payload.F8E4M3FNUZ, bytes: []byte{0x40, 0x00, 0x7f, 0x80}},
		{name: "float16 to e4m3fnuz, no saturate", opset: 19, attrs: noSat, in: mk([]int{2}, ewMap([]float64{300, inf}, f16)),
			to: payload.F8E4M3FNUZ, bytes: []byte{0x80, 0x80}},
		{name: "bfloat16 to e5m2fnuz", in: mk([]int{3}, []payload.BFloat16{payload.BFloat16From(1), payload.BFloat16From(-1e9), payload.BFloat16From(float32(negz))}),
			to: payload.F8E5M2FNUZ, bytes: []byte{0x40, 0xff, 0x00}},
		{name: "e4m3fn to float32", in: rawIn(payload.F8E4M3FN, 0x38, 0x7f, 0xfe, 0x80, 0x01),
			to: payload.Float32, vals: []float64{1, nan, -448, negz, 0x1p-9}},
		{name: "e5m2 to float16", in: rawIn(payload.F8E5M2, 0x7c, 0x3c, 0x01),
			to: payload.Float16, vals: []float64{inf, 1, 0x1p-16}},
		{name: "e4m3fnuz to float64", in: rawIn(payload.F8E4M3FNUZ, 0x80, 0x7f, 0xc0),
			to: payload.Float64, vals: []float64{nan, 240, -1}},
		{name: "e5m2fnuz to bfloat16", in: rawIn(payload.F8E5M2FNUZ, 0x7f, 0x01),
			to: payload.BF16, vals: []float64{57344, 0x1p-17}},
		{name: "e4m3fn to e5m2", in: rawIn(payload.F8E4M3FN, 0x7e, 0x01, 0xff),
			to: payload.F8E5M2, bytes: []byte{0x5f, 0x18, 0xfe}}, // 448; 2^-9, normal in e5m2; -NaN
		{name: "e5m2 to e4m3fn", in: rawIn(payload.F8E5M2, 0x7b, 0x7c),
			to: payload.F8E4M3FN, bytes: []byte{0x7e, 0x7e}}, // saturated
		{name: "e4m3fn to int8", in: rawIn(payload.F8E4M3FN, 0x3c, 0xc4, 0x58),
			to: payload.Int8, vals: []float64{1, -3, 16}},
		{name: "float32 to int4, wrapping", in: f32(-9, -8, 7, 8, 2.7, -2.7, 15),
			to: payload.I4, bytes: []byte{7, 0xf8, 7, 0xf8, 2, 0xfe, 0xff}},
		{name: "float32 to uint4", in: f32(-1, 0, 15, 16, 17.9),
			to: payload.U4, bytes: []byte{15, 0, 15, 0, 1}},
		{name: "int64 to uint2", in: mk([]int{4}, []int64{-3, 4, 5, 3}),
			to: payload.U2, bytes: []byte{1, 0, 1, 3}},
		{name: "int32 to int2", in: mk([]int{5}, []int32{-3, -2, 1, 2, 5}),
			to: payload.I2, bytes: []byte{1, 0xfe, 1, 0xfe, 1}},
		{name: "uint64 to int4, exactly", in: mk([]int{1}, []uint64{1<<63 + 5}),
			to: payload.I4, bytes: []byte{5}},
		{name: "int4 to int32, low bits", in: rawIn(payload.I4, 0xff, 0x07, 0x0f, 0x18),
			to: payload.Int32, vals: []float64{-1, 7, -1, -8}},
		{name: "uint4 to float16", in: rawIn(payload.U4, 15, 0x1f, 0),
			to: payload.Float16, vals: []float64{15, 15, 0}},
		{name: "int2 to uint4", in: rawIn(payload.I2, 0xff, 0x01, 0xfe),
			to: payload.U4, bytes: []byte{15, 1, 14}},
		{name: "uint2 to int8", in: rawIn(payload.U2, 3, 0x06),
			to: payload.Int8, vals: []float64{3, 2}},
		{name: "int4 to e4m3fn", in: rawIn(payload.I4, 0xf8, 0x07),
			to: payload.F8E4M3FN, bytes: []byte{0xd0, 0x4e}}, // -8, 7
		{name: "bool to e4m3fn", in: mk([]int{2}, []bool{true, false}),
			to: payload.F8E4M3FN, bytes: []byte{0x38, 0x00}},
		{name: "bool to int4", in: mk([]int{2}, []bool{true, false}),
			to: payload.I4, bytes: []byte{1, 0}},
		{name: "float4 to bool", in: rawIn(payload.F4E2M1, 0x8, 0x1, 0xf, 0x0),
			to: payload.Bool, vals: []float64{0, 1, 1, 0}},
		{name: "uint2 to bool", in: rawIn(payload.U2, 0, 2, 4),
			to: payload.Bool, vals: []float64{0, 1, 0}},
		{name: "float32 to float4", in: f32(0.25, 0.75, 100, float32(nan), -0.1, -3.5, 1.75),
			to: payload.F4E2M1, bytes: []byte{0, 2, 7, 8, 8, 0xe, 4}},
		{name: "float4 to float32", in: rawIn(payload.F4E2M1, 0x7, 0x9, 0x8, 0x31),
			to: payload.Float32, vals: []float64{6, -0.5, negz, 0.5}},
		{name: "float32 to e8m0, up by default", opset: 24, in: f32(1.1, 0.124, -2, float32(inf), 0),
			to: payload.F8E8M0, bytes: []byte{128, 124, 128, 255, 0}},
		{name: "float32 to e8m0, down", opset: 24, attrs: []model.Attr{aString("round_mode", "down")}, in: f32(1.1, 0.124, 3.9),
			to: payload.F8E8M0, bytes: []byte{127, 123, 128}},
		{name: "float32 to e8m0, nearest", opset: 25, attrs: []model.Attr{aString("round_mode", "nearest")}, in: f32(1.4, 1.5, 0.124),
			to: payload.F8E8M0, bytes: []byte{127, 128, 124}},
		{name: "float32 to e8m0, saturate", opset: 24, in: f32(0x1.8p127),
			to: payload.F8E8M0, bytes: []byte{254}},
		{name: "float32 to e8m0, no saturate", opset: 24, attrs: noSat, in: f32(0x1.8p127),
			to: payload.F8E8M0, bytes: []byte{255}},
		{name: "float64 to e8m0 through float32", opset: 24, attrs: []model.Attr{aString("round_mode", "down")}, in: mk([]int{1}, []float64{2 - 0x1p-30}),
			to: payload.F8E8M0, bytes: []byte{128}}, // float32 rounds it to 2 first
		{name: "e8m0 to float32", in: rawIn(payload.F8E8M0, 0, 127, 255, 130),
			to: payload.Float32, vals: []float64{0x1p-127, 1, nan, 8}},
		{name: "e8m0 to float16", in: rawIn(payload.F8E8M0, 0, 124),
			to: payload.Float16, vals: []float64{0, 0.125}},
		{name: "same type copies", in: rawIn(payload.I4, 0xff, 7),
			to: payload.I4, bytes: []byte{0xff, 7}},
	}
	for _, c := range cases {
		opset := c.opset
		if opset == 0 {
			opset = 21
		}
		attrs := append([]model.Attr{aInt("to", int64(c.to))}, c.attrs...)
		nc := nodeCase{node: node("Cast", []string{"x"}, attrs...), opset: opset, outTypes: []payload.DType{c.to}}
		outs, err := runNode(t, nc, c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		checkCast(t, c, outs[0])
	}
}

// checkCast compares a cast's output with the case's wanted bytes or
// values (NaN matching NaN, zeros by sign).
func checkCast(t *testing.T, c castCase, got *tensor) {
	t.Helper()
	if c.bytes != nil {
		if string(got.data) != string(c.bytes) {
			t.Errorf("%s: got % x, want % x", c.name, got.data, c.bytes)
		}
		return
	}
	var vals []float64
	if got.dt == payload.Float16 {
		for _, h := range elems[float16.Float16](got) {
			vals = append(vals, float64(h.Float32()))
		}
	} else {
		vals = castOut(got)
	}
	if len(vals) != len(c.vals) {
		t.Errorf("%s: got %v, want %v", c.name, vals, c.vals)
		return
	}
	for i := range vals {
		a, b := vals[i], c.vals[i]
		same := a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
		if !same {
			t.Errorf("%s: got %v, want %v", c.name, vals, c.vals)
			return
		}
	}
}

func TestCastLikeSmallTypes(t *testing.T) {
	x := mk([]int{2, 2}, []float32{1, -9, 500, 0.3})
	cases := []struct {
		like  *tensor
		attrs []model.Attr
		want  []byte
	}{
		{rawIn(payload.I4), nil, []byte{1, 7, 4, 0}},
		{rawIn(payload.F8E4M3FN, 0), nil, []byte{0x38, 0xd1, 0x7e, 0x2a}},
		{rawIn(payload.F8E4M3FN, 0), []model.Attr{aInt("saturate", 0)}, []byte{0x38, 0xd1, 0x7f, 0x2a}},
		{rawIn(payload.F8E8M0), []model.Attr{aString("round_mode", "down")}, []byte{127, 130, 135, 125}},
	}
	for _, c := range cases {
		nc := nodeCase{node: node("CastLike", []string{"x", "like"}, c.attrs...), opset: 25, outTypes: []payload.DType{c.like.dt}}
		outs, err := runNode(t, nc, x, c.like)
		if err != nil {
			t.Errorf("to %s %v: %v", c.like.dt, c.attrs, err)
			continue
		}
		if string(outs[0].data) != string(c.want) {
			t.Errorf("to %s %v: got % x, want % x", c.like.dt, c.attrs, outs[0].data, c.want)
		}
	}
}

func TestCastSmallTypesAllocs(t *testing.T) {
	for _, to := range []payload.DType{payload.F8E5M2, payload.I4, payload.F8E8M0, payload.Float32} {
		in := rawIn(payload.U4, 1, 2, 3, 4, 5, 6, 7, 8)
		if to == payload.Float32 {
			in = rawIn(payload.F8E4M3FN, 1, 2, 3, 4, 5, 6, 7, 8)
		}
		g := model.NewGraph()
		g.Opset = 24
		n := node("Cast", []string{"x"}, aInt("to", int64(to)))
		bc := &buildCtx{g: g, n: n, opset: 24,
			in:  []model.ValueInfo{{Name: "x", DType: in.dt, Shape: in.shape, RankKnown: true}},
			out: []model.ValueInfo{{Name: "y", DType: to}}}
		k, err := buildKernel(bc)
		if err != nil {
			t.Fatal(err)
		}
		out := &tensor{dt: to, shape: in.shape, data: alignedBytes(8 * to.Size())}
		ins, outs := []*tensor{in}, []*tensor{out}
		_ = k.run(ins, outs)
		if got := testing.AllocsPerRun(20, func() { _ = k.run(ins, outs) }); got != 0 {
			t.Errorf("%s to %s: %v allocations a run, want 0", in.dt, to, got)
		}
	}
}

// f16 rounds v to float16.
func f16(v float64) float16.Float16 { return float16.Fromfloat32(float32(v)) }
