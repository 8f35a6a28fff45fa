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
		{name: "castlike", op: "CastLike", opset: 15, in: []sh{{f32, d(2, 3)}, {i8, d()}}, want: []sh{{i8, d(2, 3)}}},
		{name: "castlike unknown", op: "CastLike", in: []sh{{f32, d(-1)}, unrankedSh(payload.Undefined)}, want: []sh{{payload.Undefined, d(-1)}}},

		{name: "no to", op: "Cast", in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to as float", op: "Cast", attrs: []Attr{aF("to", 1)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "name after 6", op: "Cast", opset: 6, attrs: []Attr{aS("to", "FLOAT")}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "unknown name", op: "Cast", opset: 1, attrs: []Attr{aS("to", "FLOAT32")}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to 0", op: "Cast", attrs: []Attr{aI("to", 0)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to 99", op: "Cast", attrs: []Attr{aI("to", 99)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "to float8", op: "Cast", attrs: []Attr{aI("to", 17)}, in: []sh{{f32, d(2)}}, err: errs.Unsupported},
		{name: "to int2", op: "Cast", attrs: []Attr{aI("to", 26)}, in: []sh{{f32, d(2)}}, err: errs.Unsupported},
		{name: "bad saturate", op: "Cast", opset: 19, attrs: []Attr{aI("to", 1), aI("saturate", 2)}, in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
		{name: "castlike before 15", op: "CastLike", opset: 14, in: []sh{{f32, d(2)}, {i8, d()}}, err: errs.Unsupported},
		{name: "castlike one input", op: "CastLike", in: []sh{{f32, d(2)}}, err: errs.InvalidArtifact},
	})
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
