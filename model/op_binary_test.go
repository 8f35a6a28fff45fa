package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestBinaryRule(t *testing.T) {
	b, i32 := payload.Bool, payload.Int32
	runEwRules(t, []ewCase{
		{name: "broadcast", op: "Add", in: []sh{{f32, d(2, 1, 4)}, {f32, d(3, 1)}}, want: []sh{{f32, d(2, 3, 4)}}},
		{name: "scalar", op: "Mul", in: []sh{{f32, d()}, {f32, d()}}, want: []sh{{f32, d()}}},
		{name: "unknown dim", op: "Sub", in: []sh{{f32, d(-1, 4)}, {f32, d(5, 1)}}, want: []sh{{f32, d(5, 4)}}},
		{name: "unknown vs 1", op: "Div", in: []sh{{f32, d(1)}, {f32, d(-1)}}, want: []sh{{f32, d(-1)}}},
		{name: "zero dim", op: "Add", in: []sh{{f32, d(0, 3)}, {f32, d(1, 3)}}, want: []sh{{f32, d(0, 3)}}},
		{name: "unknown rank", op: "Add", in: []sh{{f32, d(2)}, unrankedSh(f32)}, want: []sh{unrankedSh(f32)}},
		{name: "pow exponent type", op: "Pow", opset: 15, in: []sh{{f32, d(2)}, {i64, d()}}, want: []sh{{f32, d(2)}}},
		{name: "mod", op: "Mod", opset: 13, attrs: []Attr{aI("fmod", 1)}, in: []sh{{f32, d(3)}, {f32, d(1)}}, want: []sh{{f32, d(3)}}},
		{name: "bitshift", op: "BitShift", opset: 11, attrs: []Attr{aS("direction", "LEFT")}, in: []sh{{payload.Uint8, d(3)}, {payload.Uint8, d()}}, want: []sh{{payload.Uint8, d(3)}}},
		{name: "bitwise and", op: "BitwiseAnd", opset: 18, in: []sh{{i32, d(2, 1)}, {i32, d(3)}}, want: []sh{{i32, d(2, 3)}}},
		{name: "less", op: "Less", in: []sh{{i32, d(3)}, {i32, d(1)}}, want: []sh{{b, d(3)}}},
		{name: "equal unknown rank", op: "Equal", in: []sh{unrankedSh(i32), {i32, d(1)}}, want: []sh{unrankedSh(b)}},
		{name: "and", op: "And", opset: 7, in: []sh{{b, d(3)}, {b, d(2, 3)}}, want: []sh{{b, d(2, 3)}}},
		{name: "greater or equal", op: "GreaterOrEqual", opset: 12, in: []sh{{f32, d(4, 1)}, {f32, d(4)}}, want: []sh{{b, d(4, 4)}}},

		// Before opset 7: equal shapes, or B broadcast to A from axis.
		{name: "legacy same", op: "Add", opset: 6, in: []sh{{f32, d(2, -1)}, {f32, d(-1, 3)}}, want: []sh{{f32, d(2, 3)}}},
		{name: "legacy suffix", op: "Mul", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, 3, 4, 5)}, {f32, d(4, 5)}}, want: []sh{{f32, d(2, 3, 4, 5)}}},
		{name: "legacy axis", op: "Sub", opset: 6, attrs: []Attr{aI("broadcast", 1), aI("axis", 1)}, in: []sh{{f32, d(2, 3, 4, 5)}, {f32, d(3, 4)}}, want: []sh{{f32, d(2, 3, 4, 5)}}},
		{name: "legacy axis 0", op: "Div", opset: 1, attrs: []Attr{aI("broadcast", 1), aI("axis", 0)}, in: []sh{{f32, d(2, 3, 4, 5)}, {f32, d(2)}}, want: []sh{{f32, d(2, 3, 4, 5)}}},
		{name: "legacy negative axis", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1), aI("axis", -3)}, in: []sh{{f32, d(2, 3, 4, 5)}, {f32, d(3, 4)}}, want: []sh{{f32, d(2, 3, 4, 5)}}},
		{name: "legacy scalar", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, 3)}, {f32, d()}}, want: []sh{{f32, d(2, 3)}}},
		{name: "legacy ones", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, 3)}, {f32, d(1, 1)}}, want: []sh{{f32, d(2, 3)}}},
		{name: "legacy fills A", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, -1)}, {f32, d(7)}}, want: []sh{{f32, d(2, 7)}}},
		{name: "legacy A unknown rank", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{unrankedSh(f32), {f32, d(7)}}, want: []sh{unrankedSh(f32)}},
		{name: "legacy B unknown rank", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, 7)}, unrankedSh(f32)}, want: []sh{{f32, d(2, 7)}}},
		{name: "legacy compare", op: "Equal", opset: 1, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{i32, d(2, 3)}, {i32, d(3)}}, want: []sh{{b, d(2, 3)}}},
		{name: "legacy pow", op: "Pow", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, 3)}, {f32, d(3)}}, want: []sh{{f32, d(2, 3)}}},
		{name: "no legacy at 7", op: "Add", opset: 7, attrs: []Attr{aI("broadcast", 1), aI("axis", 0)}, in: []sh{{f32, d(2, 3)}, {f32, d(3)}}, want: []sh{{f32, d(2, 3)}}},

		{name: "legacy B expands A", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(2, 1)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "legacy B longer", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1)}, in: []sh{{f32, d(3)}, {f32, d(2, 3)}}, err: errs.InvalidArtifact},
		{name: "legacy axis past end", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1), aI("axis", 2)}, in: []sh{{f32, d(2, 3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "legacy wrong axis", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1), aI("axis", 0)}, in: []sh{{f32, d(2, 3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "legacy no broadcast", op: "Add", opset: 6, in: []sh{{f32, d(2, 3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "legacy no broadcast at run time", op: "Add", opset: 6, runtime: true, in: []sh{{f32, d(2, 3)}, {f32, d(2, 4)}}, err: errs.ShapeMismatch},
		{name: "legacy bad broadcast", op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 2)}, in: []sh{{f32, d(3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "conflict", op: "Add", in: []sh{{f32, d(2, 3)}, {f32, d(4)}}, err: errs.InvalidArtifact},
		{name: "conflict at run time", op: "Less", runtime: true, in: []sh{{f32, d(2, 3)}, {f32, d(4)}}, err: errs.ShapeMismatch},
		{name: "one input", op: "Add", in: []sh{{f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "three inputs", op: "Mul", in: []sh{{f32, d(3)}, {f32, d(3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "mod before 10", op: "Mod", opset: 9, in: []sh{{f32, d(3)}, {f32, d(3)}}, err: errs.Unsupported},
		{name: "bad fmod", op: "Mod", attrs: []Attr{aI("fmod", 2)}, in: []sh{{f32, d(3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "bitshift no direction", op: "BitShift", in: []sh{{payload.Uint8, d(3)}, {payload.Uint8, d(3)}}, err: errs.InvalidArtifact},
		{name: "bitshift bad direction", op: "BitShift", attrs: []Attr{aS("direction", "left")}, in: []sh{{payload.Uint8, d(3)}, {payload.Uint8, d(3)}}, err: errs.InvalidArtifact},
		{name: "less or equal before 12", op: "LessOrEqual", opset: 11, in: []sh{{f32, d(3)}, {f32, d(3)}}, err: errs.Unsupported},
	})
}

func TestVariadicRule(t *testing.T) {
	runEwRules(t, []ewCase{
		{name: "max", op: "Max", in: []sh{{f32, d(3)}, {f32, d(2, 1)}, {f32, d()}}, want: []sh{{f32, d(2, 3)}}},
		{name: "one input", op: "Sum", in: []sh{{f32, d(4, -1)}}, want: []sh{{f32, d(4, -1)}}},
		{name: "unknown rank", op: "Min", in: []sh{{f32, d(3)}, unrankedSh(f32)}, want: []sh{unrankedSh(f32)}},
		{name: "mean", op: "Mean", opset: 13, in: []sh{{f32, d(-1, 3)}, {f32, d(5, 1)}}, want: []sh{{f32, d(5, 3)}}},
		{name: "equal before 8", op: "Sum", opset: 6, in: []sh{{f32, d(-1, 3)}, unrankedSh(f32), {f32, d(5, -1)}}, want: []sh{{f32, d(5, 3)}}},
		{name: "all unranked before 8", op: "Max", opset: 6, in: []sh{unrankedSh(f32), unrankedSh(f32)}, want: []sh{unrankedSh(f32)}},

		{name: "broadcast before 8", op: "Max", opset: 7, in: []sh{{f32, d(3)}, {f32, d(2, 3)}}, err: errs.InvalidArtifact},
		{name: "dims differ before 8", op: "Mean", opset: 6, runtime: true, in: []sh{{f32, d(2, 3)}, {f32, d(2, 4)}}, err: errs.ShapeMismatch},
		{name: "conflict", op: "Min", in: []sh{{f32, d(3)}, {f32, d(4)}}, err: errs.InvalidArtifact},
		{name: "empty input", op: "Sum", in: []sh{{f32, d(3)}, ewAbsent}, err: errs.InvalidArtifact},
		{name: "no inputs", op: "Sum", err: errs.InvalidArtifact},
	})
}

func TestWhereRule(t *testing.T) {
	b, i32 := payload.Bool, payload.Int32
	runEwRules(t, []ewCase{
		{name: "broadcast", op: "Where", in: []sh{{b, d(2, 1)}, {i32, d(3)}, {i32, d(1)}}, want: []sh{{i32, d(2, 3)}}},
		{name: "unknown", op: "Where", in: []sh{{b, d(-1, 1)}, {f32, d(3)}, {f32, d(1, 1)}}, want: []sh{{f32, d(-1, 3)}}},
		{name: "unknown rank", op: "Where", in: []sh{unrankedSh(b), {f32, d(3)}, {f32, d(3)}}, want: []sh{unrankedSh(f32)}},
		{name: "conflict", op: "Where", in: []sh{{b, d(2)}, {f32, d(3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "before 9", op: "Where", opset: 8, in: []sh{{b, d(3)}, {f32, d(3)}, {f32, d(3)}}, err: errs.Unsupported},
		{name: "two inputs", op: "Where", in: []sh{{b, d(3)}, {f32, d(3)}}, err: errs.InvalidArtifact},
	})
}

// TestElementwiseRulesNoAllocs runs the broadcasting rules at run time, as
// the CPU executor does, and wants no allocation once warm.
func TestElementwiseRulesNoAllocs(t *testing.T) {
	b := payload.Bool
	cases := []ewCase{
		{op: "Add", in: []sh{{f32, d(2, 1, 4)}, {f32, d(3, 1)}}},
		{op: "Less", in: []sh{{f32, d(2, 3, 4)}, {f32, d(4)}}},
		{op: "Add", opset: 6, attrs: []Attr{aI("broadcast", 1), aI("axis", 1)}, in: []sh{{f32, d(2, 3, 4, 5)}, {f32, d(3, 4)}}},
		{op: "Sum", opset: 6, in: []sh{{f32, d(2, 3)}, {f32, d(2, 3)}, {f32, d(2, 3)}}},
		{op: "Max", in: []sh{{f32, d(2, 3)}, {f32, d(3)}, {f32, d(4, 1, 1)}}},
		{op: "Where", in: []sh{{b, d(2, 1)}, {f32, d(3)}, {f32, d(2, 3)}}},
		{op: "PRelu", in: []sh{{f32, d(2, 3, 4, 4)}, {f32, d(3, 1, 1)}}},
		{op: "PRelu", opset: 6, in: []sh{{f32, d(2, 3, 4, 4)}, {f32, d(3)}}},
		{op: "Cast", attrs: []Attr{aI("to", int64(payload.Float16))}, in: []sh{{f32, d(2, 3)}}},
		{op: "Dropout", nout: 2, in: []sh{{f32, d(2, 3)}}},
		{op: "Relu", in: []sh{{f32, d(2, 3)}}},
	}
	for _, tc := range cases {
		tc.runtime = true
		_, c, rule, err := bindCase(tc)
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		if err := rule.Infer(c); err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		if n := testing.AllocsPerRun(100, func() {
			if err := rule.Infer(c); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s at opset %d: got %v allocations per run, want 0", tc.op, tc.opset, n)
		}
	}
}
