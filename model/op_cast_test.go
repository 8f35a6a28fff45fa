package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestCastRule(t *testing.T) {
	f16, i8 := payload.Float16, payload.Int8
	runEwRules(t, []ewCase{
		{name: "cast", op: "Cast", opset: 13, attrs: []Attr{aI("to", int64(f16))}, in: []sh{{f32, d(2, 3)}}, want: []sh{{f16, d(2, 3)}}},
		{name: "unknown dims", op: "Cast", attrs: []Attr{aI("to", int64(i64))}, in: []sh{{f32, d(-1)}}, want: []sh{{i64, d(-1)}}},
		{name: "unknown rank", op: "Cast", attrs: []Attr{aI("to", int64(payload.Bool))}, in: []sh{unrankedSh(f32)}, want: []sh{unrankedSh(payload.Bool)}},
		{name: "to string", op: "Cast", attrs: []Attr{aI("to", int64(payload.String))}, in: []sh{{f32, d(1)}}, want: []sh{{payload.String, d(1)}}},
		{name: "type name at opset 1", op: "Cast", opset: 1, attrs: []Attr{aS("to", "DOUBLE")}, in: []sh{{f32, d(2)}}, want: []sh{{payload.Float64, d(2)}}},
		{name: "lower-case name", op: "Cast", opset: 5, attrs: []Attr{aS("to", "int64")}, in: []sh{{f32, d(2)}}, want: []sh{{i64, d(2)}}},
		{name: "number at opset 1", op: "Cast", opset: 1, attrs: []Attr{aI("to", int64(i8))}, in: []sh{{f32, d(2)}}, want: []sh{{i8, d(2)}}},
		{name: "saturate", op: "Cast", opset: 19, attrs: []Attr{aI("to", int64(f16)), aI("saturate", 0)}, in: []sh{{f32, d(2)}}, want: []sh{{f16, d(2)}}},
		{name: "to float8", op: "Cast", opset: 19, attrs: []Attr{aI("to", int64(payload.F8E4M3FN))}, in: []sh{{f32, d(2)}}, want: []sh{{payload.F8E4M3FN, d(2)}}},
		{name: "to int2", op: "Cast", opset: 25, attrs: []Attr{aI("to", int64(payload.I2))}, in: []sh{{f32, d(2)}}, want: []sh{{payload.I2, d(2)}}},
		{name: "from int4", op: "Cast", opset: 21, attrs: []Attr{aI("to", int64(f32))}, in: []sh{{payload.I4, d(3, -1)}}, want: []sh{{f32, d(3, -1)}}},
		{name: "to e8m0", op: "Cast", opset: 24, attrs: []Attr{aI("to", int64(payload.F8E8M0)), aS("round_mode", "nearest")}, in: []sh{{f32, d(2)}}, want: []sh{{payload.F8E8M0, d(2)}}},
		{name: "castlike", op: "CastLike", opset: 15, in: []sh{{f32, d(2, 3)}, {i8, d()}}, want: []sh{{i8, d(2, 3)}}},
		{name: "castlike to float4", op: "CastLike", opset: 24, attrs: []Attr{aS("round_mode", "down")}, in: []sh{{f32, d(2, 3)}, {payload.F4E2M1, d(0)}}, want: []sh{{payload.F4E2M1, d(2, 3)}}},
		{name: "castlike unknown", op: "CastLike", in: []sh{{f32, d(-1)}, unrankedSh(payload.Undefined)}, want: []sh{{payload.Undefined, d(-1)}}},

		{name: "no to", op: "Cast", in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to as float", op: "Cast", attrs: []Attr{aF("to", 1)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "name after 6", op: "Cast", opset: 6, attrs: []Attr{aS("to", "FLOAT")}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "unknown name", op: "Cast", opset: 1, attrs: []Attr{aS("to", "FLOAT32")}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to 0", op: "Cast", attrs: []Attr{aI("to", 0)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to 99", op: "Cast", attrs: []Attr{aI("to", 99)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "bad round_mode", op: "Cast", opset: 24, attrs: []Attr{aI("to", 24), aS("round_mode", "zero")}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "round_mode as int", op: "Cast", opset: 24, attrs: []Attr{aI("to", 24), aI("round_mode", 1)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "castlike bad round_mode", op: "CastLike", opset: 24, attrs: []Attr{aS("round_mode", "UP")}, in: []sh{{f32, d(2)}, {i8, d()}}, err: errs.InvalidArtifact},
		{name: "bad saturate", op: "Cast", opset: 19, attrs: []Attr{aI("to", 1), aI("saturate", 2)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "castlike before 15", op: "CastLike", opset: 14, in: []sh{{f32, d(2)}, {i8, d()}}, err: errs.Unsupported},
		{name: "castlike one input", op: "CastLike", in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
	})
}

func TestCastAttrsByOpset(t *testing.T) {
	for _, c := range []struct {
		opset int64
		attrs []Attr
		want  CastAttrs
	}{
		{13, nil, CastAttrs{To: payload.F8E5M2, Saturate: true}},
		{13, []Attr{aI("saturate", 0), aS("round_mode", "bad")}, CastAttrs{To: payload.F8E5M2, Saturate: true}},
		{19, []Attr{aI("saturate", 0)}, CastAttrs{To: payload.F8E5M2}},
		{23, []Attr{aS("round_mode", "bad")}, CastAttrs{To: payload.F8E5M2, Saturate: true}},
		{24, nil, CastAttrs{To: payload.F8E5M2, Saturate: true, RoundMode: payload.E8M0Up}},
		{24, []Attr{aS("round_mode", "down")}, CastAttrs{To: payload.F8E5M2, Saturate: true, RoundMode: payload.E8M0Down}},
		{25, []Attr{aS("round_mode", "nearest"), aI("saturate", 0)}, CastAttrs{To: payload.F8E5M2, RoundMode: payload.E8M0Nearest}},
	} {
		attrs := append([]Attr{aI("to", int64(payload.F8E5M2))}, c.attrs...)
		_, r, err := BindNode(nd("Cast", []string{"x"}, []string{"y"}, attrs...), c.opset)
		if err != nil {
			t.Fatalf("opset %d %v: %v", c.opset, c.attrs, err)
		}
		if got := *r.(*CastAttrs); got != c.want {
			t.Errorf("opset %d %v: got %+v, want %+v", c.opset, c.attrs, got, c.want)
		}
	}
}

func TestDropoutRule(t *testing.T) {
	b := payload.Bool
	runEwRules(t, []ewCase{
		{name: "mask", op: "Dropout", opset: 13, nout: 2, in: []sh{{f32, d(2, 3)}}, want: []sh{{f32, d(2, 3)}, {b, d(2, 3)}}},
		{name: "ratio input", op: "Dropout", opset: 12, in: []sh{{f32, d(-1, 3)}, {f32, d()}, {b, d()}}, want: []sh{{f32, d(-1, 3)}}},
		{name: "mask of the input's type", op: "Dropout", opset: 7, nout: 2, in: []sh{{f32, d(4)}}, want: []sh{{f32, d(4)}, {f32, d(4)}}},
		{name: "bool mask at 10", op: "Dropout", opset: 10, nout: 2, in: []sh{{f32, d(4)}}, want: []sh{{f32, d(4)}, {b, d(4)}}},
		{name: "unknown rank", op: "Dropout", nout: 2, in: []sh{unrankedSh(f32)}, want: []sh{unrankedSh(f32), unrankedSh(b)}},
		{name: "test mode before 7", op: "Dropout", opset: 6, attrs: []Attr{aI("is_test", 1)}, in: []sh{{f32, d(4)}}, want: []sh{{f32, d(4)}}},

		{name: "ratio input before 12", op: "Dropout", opset: 11, in: []sh{{f32, d(4)}, {f32, d()}}, err: errs.InvalidArtifact},
		{name: "bad ratio", op: "Dropout", opset: 10, attrs: []Attr{aF("ratio", 1)}, in: []sh{{f32, d(4)}}, err: errs.InvalidArtifact},
		{name: "three outputs", op: "Dropout", nout: 3, in: []sh{{f32, d(4)}}, err: errs.InvalidArtifact},
	})
	for _, c := range []struct {
		opset int64
		attrs []Attr
		want  DropoutAttrs
	}{
		{6, nil, DropoutAttrs{Training: true}},
		{6, []Attr{aI("is_test", 1)}, DropoutAttrs{}},
		{9, nil, DropoutAttrs{}},
		{12, nil, DropoutAttrs{BoolMask: true}},
	} {
		_, r, err := BindNode(nd("Dropout", []string{"x"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatal(err)
		}
		if got := *r.(*DropoutAttrs); got != c.want {
			t.Errorf("opset %d: got %+v, want %+v", c.opset, got, c.want)
		}
	}
}
