package model

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestClipRule(t *testing.T) {
	runEwRules(t, []ewCase{
		{name: "attributes", op: "Clip", opset: 6, attrs: []Attr{aF("min", 0), aF("max", 6)}, in: []sh{{f32, d(2, 3)}}, want: []sh{{f32, d(2, 3)}}},
		{name: "inputs", op: "Clip", opset: 13, in: []sh{{f32, d(-1, 3)}, {f32, d()}, {f32, d()}}, want: []sh{{f32, d(-1, 3)}}},
		{name: "max only", op: "Clip", opset: 11, in: []sh{{i64, d(4)}, ewAbsent, {i64, d()}}, want: []sh{{i64, d(4)}}},
		{name: "unknown rank", op: "Clip", in: []sh{unrankedSh(f32)}, want: []sh{unrankedSh(f32)}},
		{name: "inputs before 11", op: "Clip", opset: 10, in: []sh{{f32, d(3)}, {f32, d()}}, err: errs.InvalidArtifact},
		{name: "min as int", op: "Clip", opset: 6, attrs: []Attr{aI("min", 0)}, in: []sh{{f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "four inputs", op: "Clip", in: []sh{{f32, d(3)}, {f32, d()}, {f32, d()}, {f32, d()}}, err: errs.InvalidArtifact},
	})
	cases := []struct {
		opset int64
		attrs []Attr
		want  ClipAttrs
	}{
		{6, []Attr{aF("min", -1)}, ClipAttrs{FromAttrs: true, Min: -1, Max: math.MaxFloat32}},
		{1, nil, ClipAttrs{FromAttrs: true, Min: -math.MaxFloat32, Max: math.MaxFloat32}},
		{11, []Attr{aF("min", -1)}, ClipAttrs{Min: -math.MaxFloat32, Max: math.MaxFloat32}},
	}
	for _, c := range cases {
		_, r, err := BindNode(nd("Clip", []string{"x"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatal(err)
		}
		if got := *r.(*ClipAttrs); got != c.want {
			t.Errorf("opset %d: got %+v, want %+v", c.opset, got, c.want)
		}
	}
}

func TestPReluRule(t *testing.T) {
	runEwRules(t, []ewCase{
		{name: "channel slope", op: "PRelu", in: []sh{{f32, d(1, 3, 4, 4)}, {f32, d(3, 1, 1)}}, want: []sh{{f32, d(1, 3, 4, 4)}}},
		{name: "trailing slope", op: "PRelu", opset: 7, in: []sh{{f32, d(2, 5)}, {f32, d(5)}}, want: []sh{{f32, d(2, 5)}}},
		{name: "slope fills X", op: "PRelu", in: []sh{{f32, d(2, -1)}, {f32, d(5)}}, want: []sh{{f32, d(2, 5)}}},
		{name: "unknown slope", op: "PRelu", in: []sh{{f32, d(2, 5)}, {f32, d(-1)}}, want: []sh{{f32, d(2, 5)}}},
		{name: "unknown rank", op: "PRelu", in: []sh{unrankedSh(f32), {f32, d(5)}}, want: []sh{unrankedSh(f32)}},
		{name: "slope unknown rank", op: "PRelu", in: []sh{{f32, d(2, 5)}, unrankedSh(f32)}, want: []sh{{f32, d(2, 5)}}},
		{name: "per channel before 7", op: "PRelu", opset: 6, in: []sh{{f32, d(2, 3, 4, 4)}, {f32, d(3)}}, want: []sh{{f32, d(2, 3, 4, 4)}}},
		{name: "per channel fills X", op: "PRelu", opset: 1, in: []sh{{f32, d(2, -1, 4)}, {f32, d(3)}}, want: []sh{{f32, d(2, 3, 4)}}},
		{name: "one element before 7", op: "PRelu", opset: 6, in: []sh{{f32, d(2, 3, 4)}, {f32, d(1, 1, 1, 1)}}, want: []sh{{f32, d(2, 3, 4)}}},
		{name: "unknown slope before 7", op: "PRelu", opset: 6, in: []sh{{f32, d(2, 3, 4)}, {f32, d(-1, 1)}}, want: []sh{{f32, d(2, 3, 4)}}},

		{name: "bad slope", op: "PRelu", in: []sh{{f32, d(2, 5)}, {f32, d(3)}}, err: errs.InvalidArtifact},
		{name: "slope expands X", op: "PRelu", runtime: true, in: []sh{{f32, d(2, 1)}, {f32, d(5)}}, err: errs.ShapeMismatch},
		{name: "slope longer", op: "PRelu", in: []sh{{f32, d(5)}, {f32, d(1, 5)}}, err: errs.InvalidArtifact},
		{name: "trailing slope before 7", op: "PRelu", opset: 6, in: []sh{{f32, d(2, 3, 5)}, {f32, d(5)}}, err: errs.InvalidArtifact},
		{name: "shaped slope before 7", op: "PRelu", opset: 6, in: []sh{{f32, d(2, 3, 5)}, {f32, d(3, 1, 1)}}, err: errs.InvalidArtifact},
		{name: "vector X before 7", op: "PRelu", opset: 6, runtime: true, in: []sh{{f32, d(3)}, {f32, d(3)}}, err: errs.ShapeMismatch},
		{name: "one input", op: "PRelu", in: []sh{{f32, d(3)}}, err: errs.InvalidArtifact},
	})
}
