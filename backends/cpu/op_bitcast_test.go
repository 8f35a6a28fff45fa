package cpu

import (
	"errors"
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestBitCast(t *testing.T) {
	cases := []struct {
		name string
		in   *tensor
		to   payload.DType
		want []byte
	}{
		{"float32 to int32", mk([]int{2}, []float32{1, -2.5}), payload.Int32, payload.AsBytes([]int32{0x3f800000, -0x3fe00000})},
		{"float64 to uint64", mk([]int{1}, []float64{math.Inf(-1)}), payload.Uint64, payload.AsBytes([]uint64{0xfff0000000000000})},
		{"int8 to uint8", mk([]int{4}, []int8{-1, -128, 127, 0}), payload.Uint8, []byte{0xff, 0x80, 0x7f, 0x00}},
		{"uint16 to float16", mk([]int{2}, []uint16{0x3c00, 0x7c00}), payload.Float16, []byte{0x00, 0x3c, 0x00, 0x7c}},
		{"bool to uint8", mk([]int{3}, []bool{true, false, true}), payload.Uint8, []byte{1, 0, 1}},
		{"uint8 to bool", mk([]int{3}, []uint8{2, 0, 1}), payload.Bool, []byte{1, 0, 1}},
		{"uint8 to float8e4m3fn", mk([]int{2}, []uint8{0x38, 0xff}), payload.F8E4M3FN, []byte{0x38, 0xff}},
		{"float8e5m2 to int8", rawIn(payload.F8E5M2, 0xfc, 0x3c), payload.Int8, []byte{0xfc, 0x3c}},
		{"float8e8m0 to float8e4m3fnuz", rawIn(payload.F8E8M0, 0x80, 0x7f), payload.F8E4M3FNUZ, []byte{0x80, 0x7f}},
		// A 4-bit element keeps its 4 bits: -1 (0xf) is 15 as uint4.
		{"int4 to uint4", rawIn(payload.I4, 0xff, 0x07, 0xf8), payload.U4, []byte{0x0f, 0x07, 0x08}},
		{"uint4 to int4", rawIn(payload.U4, 15, 7, 8), payload.I4, []byte{0xff, 0x07, 0xf8}},
		{"float4 to int4", rawIn(payload.F4E2M1, 0xf, 0x1), payload.I4, []byte{0xff, 0x01}},
		{"int4 to float4", rawIn(payload.I4, 0xff), payload.F4E2M1, []byte{0x0f}},
		{"int2 to uint2", rawIn(payload.I2, 0xff, 0xfe, 0x01), payload.U2, []byte{3, 2, 1}},
		{"uint2 to int2", rawIn(payload.U2, 3, 2, 1, 0), payload.I2, []byte{0xff, 0xfe, 0x01, 0x00}},
	}
	for _, c := range cases {
		nc := nodeCase{node: node("BitCast", []string{"x"}, aInt("to", int64(c.to))), opset: 26, outTypes: []payload.DType{c.to}}
		outs, err := runNode(t, nc, c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if o := outs[0]; o.dt != c.to || !sameShape(o.shape, c.in.shape) || string(o.data) != string(c.want) {
			t.Errorf("%s: got %s %v % x, want %s %v % x", c.name, o.dt, o.shape, o.data, c.to, c.in.shape, c.want)
		}
	}
}

func TestBitCastErrors(t *testing.T) {
	x := mk([]int{2}, []float32{1, 2})
	cases := []struct {
		name  string
		attrs []model.Attr
		out   payload.DType
		want  error
	}{
		{"widths differ", []model.Attr{aInt("to", int64(payload.Int64))}, payload.Int64, errs.InvalidArtifact},
		{"to string", []model.Attr{aInt("to", int64(payload.String))}, payload.String, errs.InvalidArtifact},
		{"no to", nil, payload.Int32, errs.InvalidArtifact},
	}
	for _, c := range cases {
		nc := nodeCase{node: node("BitCast", []string{"x"}, c.attrs...), opset: 26, outTypes: []payload.DType{c.out}}
		if _, err := runNode(t, nc, x); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want an error wrapping %v", c.name, err, c.want)
		}
	}
	nc := nodeCase{node: node("BitCast", []string{"x"}, aInt("to", int64(payload.Int32))), opset: 26, outTypes: []payload.DType{payload.Int32}}
	if _, err := runNode(t, nc, mk([]int{1}, []payload.Float8E4M3FN{0x38})); !errors.Is(err, errs.InvalidArtifact) {
		t.Errorf("float8 to int32: got %v, want an error wrapping %v", err, errs.InvalidArtifact)
	}
}

func TestBitCastAllocs(t *testing.T) {
	g := model.NewGraph()
	g.Opset = 26
	n := node("BitCast", []string{"x"}, aInt("to", int64(payload.U4)))
	bc := &buildCtx{g: g, n: n, opset: 26,
		in:  []model.ValueInfo{{Name: "x", DType: payload.I4, Shape: []int{8}, RankKnown: true}},
		out: []model.ValueInfo{{Name: "y", DType: payload.U4}}}
	k, err := buildKernel(bc)
	if err != nil {
		t.Fatal(err)
	}
	ins := []*tensor{rawIn(payload.I4, 1, 2, 3, 4, 0xff, 0xfe, 0xfd, 0xfc)}
	outs := []*tensor{{dt: payload.U4, shape: []int{8}, data: alignedBytes(8)}}
	if got := testing.AllocsPerRun(20, func() { _ = k.run(ins, outs) }); got != 0 {
		t.Errorf("%v allocations a run, want 0", got)
	}
}
