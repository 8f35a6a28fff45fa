package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestQuantizeLinearRule(t *testing.T) {
	i8, i4, f16, e4 := payload.Int8, payload.I4, payload.Float16, payload.F8E4M3FN
	q := func(attrs ...Attr) *Node { return nd("QuantizeLinear", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "per tensor uint8 default", opset: 10, node: q(), in: []ruleIn{in(f32, 2, 3), in(f32)}, want: []sh{{u8, d(2, 3)}}},
		{name: "zero point sets the type", opset: 13, node: q(), in: []ruleIn{in(f32, 2, 3), in(f32), in(i8)}, want: []sh{{i8, d(2, 3)}}},
		{name: "scalar scale, 1-element zero point", opset: 25, node: q(), in: []ruleIn{in(f32, 5), in(f32), in(e4, 1)}, want: []sh{{e4, d(5)}}},
		{name: "per axis", opset: 13, node: q(), in: []ruleIn{in(f32, 1, 3, 4), in(f32, 3), in(u8, 3)}, want: []sh{{u8, d(1, 3, 4)}}},
		{name: "per axis negative axis", opset: 13, node: q(aI("axis", -1)), in: []ruleIn{in(f32, 2, 4), in(f32, 4)}, want: []sh{{u8, d(2, 4)}}},
		{name: "blocked", opset: 21, node: q(aI("axis", 1), aI("block_size", 2)), in: []ruleIn{in(f32, 3, 5), in(f32, 3, 3), in(i4, 3, 3)}, want: []sh{{i4, d(3, 5)}}},
		{name: "output_dtype", opset: 21, node: q(aI("output_dtype", int64(payload.Int16))), in: []ruleIn{in(f32, 4), in(f32)}, want: []sh{{payload.Int16, d(4)}}},
		{name: "precision", opset: 25, node: q(aI("precision", int64(f16))), in: []ruleIn{in(f32, 4), in(f32)}, want: []sh{{u8, d(4)}}},
		{name: "partial", opset: 13, node: q(), in: []ruleIn{in(f32, -1, 3), in(f32, 3)}, want: []sh{{u8, d(-1, 3)}}},
		{name: "unknown rank", opset: 13, node: q(), in: []ruleIn{unr(f32), in(f32, 3)}, want: []sh{{u8, nil}}},
		{name: "per axis length", opset: 13, runtime: true, node: q(), in: []ruleIn{in(f32, 2, 3), in(f32, 2)}, err: mismatch},
		{name: "per axis before opset 13", opset: 10, runtime: true, node: q(), in: []ruleIn{in(f32, 2, 3), in(f32, 3)}, err: mismatch},
		{name: "blocked count", opset: 21, runtime: true, node: q(aI("block_size", 2)), in: []ruleIn{in(f32, 3, 5), in(f32, 3, 2)}, err: mismatch},
		{name: "zero point shape", opset: 13, runtime: true, node: q(), in: []ruleIn{in(f32, 2, 3), in(f32, 3), in(u8, 2)}, err: mismatch},
		{name: "axis out of range", opset: 13, runtime: true, node: q(aI("axis", 2)), in: []ruleIn{in(f32, 2, 3), in(f32, 3)}, err: mismatch},
		{name: "output_dtype conflicts", opset: 21, node: q(aI("output_dtype", int64(i8))), in: []ruleIn{in(f32, 4), in(f32), in(u8)}, err: invalid},
		{name: "bad output_dtype", opset: 21, node: q(aI("output_dtype", int64(payload.Float32))), in: []ruleIn{in(f32, 4), in(f32)}, err: invalid},
		{name: "bad block_size", opset: 21, node: q(aI("block_size", -1)), in: []ruleIn{in(f32, 4), in(f32)}, err: invalid},
		{name: "before opset 10", opset: 9, node: q(), in: []ruleIn{in(f32, 4), in(f32)}, err: unsupp},
	})
}

func TestDequantizeLinearRule(t *testing.T) {
	i8, f16 := payload.Int8, payload.Float16
	dq := func(attrs ...Attr) *Node { return nd("DequantizeLinear", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "per tensor", opset: 10, node: dq(), in: []ruleIn{in(u8, 4), in(f32), in(u8)}, want: []sh{{f32, d(4)}}},
		{name: "float16 scale", opset: 21, node: dq(), in: []ruleIn{in(payload.F8E4M3FN, 5), in(f16)}, want: []sh{{f16, d(5)}}},
		{name: "output_dtype", opset: 23, node: dq(aI("output_dtype", int64(f16))), in: []ruleIn{in(i8, 5), in(f32)}, want: []sh{{f16, d(5)}}},
		{name: "per axis", opset: 13, node: dq(), in: []ruleIn{in(i8, 1, 3, 2), in(f32, 3), in(i8, 3)}, want: []sh{{f32, d(1, 3, 2)}}},
		{name: "blocked", opset: 21, node: dq(aI("block_size", 2)), in: []ruleIn{in(i8, 1, 4, 3), in(f32, 1, 2, 3), in(i8, 1, 2, 3)}, want: []sh{{f32, d(1, 4, 3)}}},
		{name: "int32 without zero point", opset: 13, node: dq(), in: []ruleIn{in(i32, 3), in(f32)}, want: []sh{{f32, d(3)}}},
		{name: "zero point type", opset: 13, node: dq(), in: []ruleIn{in(i8, 3), in(f32), in(u8)}, err: invalid},
		{name: "blocked rank", opset: 21, runtime: true, node: dq(aI("block_size", 2)), in: []ruleIn{in(i8, 4, 3), in(f32, 2)}, err: mismatch},
		{name: "bad output_dtype", opset: 23, node: dq(aI("output_dtype", int64(i8))), in: []ruleIn{in(i8, 4), in(f32)}, err: invalid},
	})
}

func TestDynamicQuantizeLinearRule(t *testing.T) {
	n := func() *Node { return nd("DynamicQuantizeLinear", nil, []string{"y", "s", "z"}) }
	runRules(t, []ruleCase{
		{name: "matrix", opset: 11, node: n(), in: []ruleIn{in(f32, 3, 4)}, want: []sh{{u8, d(3, 4)}, {f32, d()}, {u8, d()}}},
		{name: "partial", opset: 11, node: n(), in: []ruleIn{in(f32, -1)}, want: []sh{{u8, d(-1)}, {f32, d()}, {u8, d()}}},
		{name: "before opset 11", opset: 10, node: n(), in: []ruleIn{in(f32, 3)}, err: unsupp},
	})
}

func TestQuantizeRulesNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "quantize blocked", opset: 21, node: nd("QuantizeLinear", nil, nil, aI("block_size", 2)),
		in: []ruleIn{in(f32, 3, 5), in(f32, 3, 3), in(u8, 3, 3)}})
	wantNoAllocs(t, ruleCase{name: "dequantize per axis", opset: 13, node: nd("DequantizeLinear", nil, nil),
		in: []ruleIn{in(u8, 2, 3), in(f32, 3), in(u8, 3)}})
}
