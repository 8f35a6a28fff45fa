package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestUnaryRule(t *testing.T) {
	b := payload.Bool
	runEwRules(t, []ewCase{
		{name: "relu", op: "Relu", in: []sh{{f32, d(2, 3)}}, want: []sh{{f32, d(2, 3)}}},
		{name: "scalar", op: "Exp", in: []sh{{f32, d()}}, want: []sh{{f32, d()}}},
		{name: "unknown dims", op: "Neg", in: []sh{{i64, d(-1, 4)}}, want: []sh{{i64, d(-1, 4)}}},
		{name: "unknown rank", op: "Sigmoid", in: []sh{unrankedSh(f32)}, want: []sh{unrankedSh(f32)}},
		{name: "not", op: "Not", in: []sh{{b, d(4)}}, want: []sh{{b, d(4)}}},
		{name: "isnan", op: "IsNaN", in: []sh{{f32, d(-1)}}, want: []sh{{b, d(-1)}}},
		{name: "isinf", op: "IsInf", opset: 10, in: []sh{{payload.Float64, d(2)}}, attrs: []Attr{aI("detect_negative", 0)}, want: []sh{{b, d(2)}}},
		{name: "isinf unknown rank", op: "IsInf", in: []sh{unrankedSh(f32)}, want: []sh{unrankedSh(b)}},
		{name: "gelu tanh", op: "Gelu", opset: 20, in: []sh{{f32, d(3)}}, attrs: []Attr{aS("approximate", "tanh")}, want: []sh{{f32, d(3)}}},
		{name: "identity", op: "Identity", opset: 1, in: []sh{{payload.Uint8, d(0, 2)}}, want: []sh{{payload.Uint8, d(0, 2)}}},
		{name: "shrink", op: "Shrink", opset: 9, in: []sh{{f32, d(5)}}, attrs: []Attr{aF("lambd", 1), aF("bias", 0.5)}, want: []sh{{f32, d(5)}}},
		{name: "bitwise not", op: "BitwiseNot", opset: 18, in: []sh{{payload.Int32, d(2)}}, want: []sh{{payload.Int32, d(2)}}},
		{name: "hardswish", op: "HardSwish", opset: 14, in: []sh{{f32, d(1)}}, want: []sh{{f32, d(1)}}},
		{name: "selu at opset 1", op: "Selu", opset: 1, in: []sh{{f32, d(1)}}, want: []sh{{f32, d(1)}}},

		{name: "gelu before 20", op: "Gelu", opset: 19, in: []sh{{f32, d(3)}}, err: errs.Unsupported},
		{name: "mish before 18", op: "Mish", opset: 17, in: []sh{{f32, d(3)}}, err: errs.Unsupported},
		{name: "erf before 9", op: "Erf", opset: 8, in: []sh{{f32, d(3)}}, err: errs.Unsupported},
		{name: "gelu mode", op: "Gelu", opset: 20, in: []sh{{f32, d(3)}}, attrs: []Attr{aS("approximate", "erf")}, err: errs.InvalidArtifact},
		{name: "celu alpha 0", op: "Celu", opset: 12, in: []sh{{f32, d(3)}}, attrs: []Attr{aF("alpha", 0)}, err: errs.InvalidArtifact},
		{name: "alpha as int", op: "LeakyRelu", in: []sh{{f32, d(3)}}, attrs: []Attr{aI("alpha", 1)}, err: errs.InvalidArtifact},
		{name: "two inputs", op: "Relu", in: []sh{{f32, d(3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "no input", op: "Abs", in: []sh{ewAbsent}, err: errs.InvalidArtifact},
		{name: "isinf flag as float", op: "IsInf", in: []sh{{f32, d(3)}}, attrs: []Attr{aF("detect_positive", 1)}, err: errs.InvalidArtifact},
	})
}

func TestUnaryAttrs(t *testing.T) {
	cases := []struct {
		op    string
		opset int64
		attrs []Attr
		want  UnaryAttrs
	}{
		{"LeakyRelu", 16, nil, UnaryAttrs{Alpha: 0.01}},
		{"LeakyRelu", 6, []Attr{aF("alpha", 0.2)}, UnaryAttrs{Alpha: 0.2}},
		{"HardSigmoid", 6, nil, UnaryAttrs{Alpha: 0.2, Beta: 0.5}},
		{"Selu", 6, []Attr{aF("gamma", 2)}, UnaryAttrs{Alpha: 1.67326319217681884765625, Beta: 2}},
		{"Shrink", 9, nil, UnaryAttrs{Alpha: 0.5}},
		{"ThresholdedRelu", 10, nil, UnaryAttrs{Alpha: 1}},
		{"Elu", 6, nil, UnaryAttrs{Alpha: 1}},
		{"Celu", 12, []Attr{aF("alpha", 2)}, UnaryAttrs{Alpha: 2}},
		{"Relu", 14, []Attr{aF("alpha", 3)}, UnaryAttrs{}},
		{"Not", 1, nil, UnaryAttrs{Bool: true}},
	}
	for _, c := range cases {
		_, r, err := BindNode(nd(c.op, []string{"x"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if got := *r.(*UnaryAttrs); got != c.want {
			t.Errorf("%s at opset %d: got %+v, want %+v", c.op, c.opset, got, c.want)
		}
	}
	_, r, err := BindNode(nd("IsInf", []string{"x"}, []string{"y"}, aI("detect_positive", 0)), 20)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := *r.(*IsInfAttrs), (IsInfAttrs{UnaryAttrs{Bool: true}, true, false}); got != want {
		t.Errorf("IsInf: got %+v, want %+v", got, want)
	}
}
