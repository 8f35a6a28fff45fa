package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestBitCastRule(t *testing.T) {
	i32, u8, b := payload.Int32, payload.Uint8, payload.Bool
	to := func(dt payload.DType) []Attr { return []Attr{aI("to", int64(dt))} }
	runEwRules(t, []ewCase{
		{name: "float32 to int32", op: "BitCast", opset: 26, attrs: to(i32), in: []sh{{f32, d(2, 3)}}, want: []sh{{i32, d(2, 3)}}},
		{name: "scalar", op: "BitCast", opset: 26, attrs: to(i32), in: []sh{{f32, d()}}, want: []sh{{i32, d()}}},
		{name: "bool to uint8", op: "BitCast", opset: 26, attrs: to(u8), in: []sh{{b, d(4)}}, want: []sh{{u8, d(4)}}},
		{name: "int4 to float4", op: "BitCast", opset: 26, attrs: to(payload.F4E2M1), in: []sh{{payload.I4, d(-1, 2)}}, want: []sh{{payload.F4E2M1, d(-1, 2)}}},
		{name: "float8 to int8", op: "BitCast", opset: 26, attrs: to(payload.Int8), in: []sh{{payload.F8E5M2, d(3)}}, want: []sh{{payload.Int8, d(3)}}},
		{name: "complex64 to int64", op: "BitCast", opset: 26, attrs: to(i64), in: []sh{{payload.Complex64, d(1)}}, want: []sh{{i64, d(1)}}},
		{name: "unknown rank", op: "BitCast", opset: 26, attrs: to(i32), in: []sh{unrankedSh(f32)}, want: []sh{unrankedSh(i32)}},
		{name: "unknown input type", op: "BitCast", opset: 26, attrs: to(i32), in: []sh{{payload.Undefined, d(2)}}, want: []sh{{i32, d(2)}}},

		{name: "widths differ", op: "BitCast", opset: 26, attrs: to(i64), in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "int4 to int8", op: "BitCast", opset: 26, attrs: to(payload.Int8), in: []sh{{payload.I4, d(2)}}, err: errs.InvalidArtifact},
		{name: "from string", op: "BitCast", opset: 26, attrs: to(u8), in: []sh{{payload.String, d(2)}}, err: errs.InvalidArtifact},
		{name: "to string", op: "BitCast", opset: 26, attrs: to(payload.String), in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to 0", op: "BitCast", opset: 26, attrs: []Attr{aI("to", 0)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to 27", op: "BitCast", opset: 26, attrs: []Attr{aI("to", 27)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "no to", op: "BitCast", opset: 26, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to as string", op: "BitCast", opset: 26, attrs: []Attr{aS("to", "INT32")}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "before 26", op: "BitCast", opset: 25, attrs: to(i32), in: []sh{{f32, d(2)}}, err: errs.Unsupported},
		{name: "runtime widths differ", op: "BitCast", opset: 26, runtime: true, attrs: to(payload.Int16), in: []sh{{f32, d(2)}}, err: errs.ShapeMismatch},
	})
}
