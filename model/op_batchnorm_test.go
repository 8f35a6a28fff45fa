package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestBatchNormalizationRule(t *testing.T) {
	ins := []string{"x", "s", "b", "m", "v"}
	bn := func(outs []string, attrs ...Attr) *Node { return nd("BatchNormalization", ins, outs, attrs...) }
	y := []string{"y"}
	p := func(c int) []nnIn { return []nnIn{kin(f32, c), kin(f32, c), kin(f32, c), kin(f32, c)} }
	with := func(x nnIn, params []nnIn) []nnIn { return append([]nnIn{x}, params...) }
	runNNCases(t, []nnCase{
		{name: "4-D", opset: 15, node: bn(y), in: with(kin(f32, 2, 3, 4, 4), p(3)), want: []nnOut{ko(f32, 2, 3, 4, 4)}},
		{name: "2-D", opset: 15, node: bn(y), in: with(kin(f32, 4, 3), p(3)), want: []nnOut{ko(f32, 4, 3)}},
		{name: "unknown batch", opset: 15, node: bn(y), in: with(kin(f32, -1, 3, 5), p(3)), want: []nnOut{ko(f32, -1, 3, 5)}},
		{name: "unknown channels", opset: 15, node: bn(y), in: with(kin(f32, 2, -1, 5), p(3)), want: []nnOut{ko(f32, 2, -1, 5)}},
		{name: "unknown rank", opset: 15, node: bn(y), in: with(uin(f32), p(3)), want: []nnOut{uo(f32)}},
		{name: "float64 statistics", opset: 15, node: bn([]string{"y", "rm", "rv"}, aI("training_mode", 1)),
			in:   []nnIn{kin(payload.Float16, 2, 3, 4), kin(payload.Float16, 3), kin(payload.Float16, 3), kin(payload.Float64, 3), kin(payload.Float64, 3)},
			want: []nnOut{ko(payload.Float16, 2, 3, 4), ko(payload.Float64, 3), ko(payload.Float64, 3)}},
		{name: "training outputs unknown rank", opset: 14, node: bn([]string{"y", "rm", "rv"}, aI("training_mode", 1)), in: with(uin(f32), p(3)),
			want: []nnOut{uo(f32), ko(f32, -1), ko(f32, -1)}},
		{name: "opset 7 five outputs", opset: 7, node: bn([]string{"y", "m", "v", "sm", "sv"}), in: with(kin(f32, 2, 3, 4), p(3)),
			want: []nnOut{ko(f32, 2, 3, 4), ko(f32, 3), ko(f32, 3), ko(f32, 3), ko(f32, 3)}},
		{name: "opset 7 per element", opset: 7, node: bn([]string{"y", "m"}, aI("spatial", 0)),
			in:   []nnIn{kin(f32, 2, 3, 4), kin(f32, 3, 4), kin(f32, 3, 4), kin(f32, 3, 4), kin(f32, 3, 4)},
			want: []nnOut{ko(f32, 2, 3, 4), ko(f32, 3, 4)}},
		{name: "opset 6 is_test", opset: 6, node: bn(y, aI("is_test", 1), aIs("consumed_inputs", 0, 0, 0, 1, 1)), in: with(kin(f32, 1, 3, 2, 2), p(3)), want: []nnOut{ko(f32, 1, 3, 2, 2)}},
		{name: "channels mismatch", opset: 15, node: bn(y), in: with(kin(f32, 2, 3, 4), p(4)), err: errs.InvalidArtifact, errHas: "input 1"},
		{name: "channels mismatch at run time", opset: 15, runtime: true, node: bn(y),
			in:  []nnIn{kin(f32, 2, 3, 4), kin(f32, 3), kin(f32, 3), kin(f32, 3), kin(f32, 2)},
			err: errs.ShapeMismatch, errHas: "input 4"},
		{name: "parameter rank", opset: 15, node: bn(y), in: []nnIn{uin(f32), kin(f32, 1, 3)}, err: errs.InvalidArtifact, errHas: "one value per channel"},
		{name: "rank 1", opset: 15, runtime: true, node: bn(y), in: with(kin(f32, 3), p(3)), err: errs.ShapeMismatch, errHas: "rank 2"},
		{name: "three outputs from 14", opset: 14, node: bn([]string{"y", "m", "v", "sm"}), err: errs.InvalidArtifact, errHas: "at most 3"},
		{name: "var missing", opset: 15, node: nd("BatchNormalization", []string{"x", "s", "b", "m"}, y), err: errs.InvalidArtifact, errHas: "input 4 (input_var)"},
		{name: "epsilon not a float", opset: 15, node: bn(y, aI("epsilon", 1)), err: errs.InvalidArtifact, errHas: "epsilon"},
	})
}

func TestBatchNormalizationAttrs(t *testing.T) {
	cases := []struct {
		name  string
		opset int64
		attrs []Attr
		want  BatchNormAttrs
	}{
		{"defaults", 15, nil, BatchNormAttrs{Epsilon: 1e-5, Momentum: 0.9, Spatial: true}},
		{"training mode", 15, []Attr{aI("training_mode", 1), aF("epsilon", 1e-3)}, BatchNormAttrs{Epsilon: 1e-3, Momentum: 0.9, Spatial: true, Training: true}},
		{"training_mode before 14", 9, []Attr{aI("training_mode", 1)}, BatchNormAttrs{Epsilon: 1e-5, Momentum: 0.9, Spatial: true}},
		{"spatial 0", 7, []Attr{aI("spatial", 0)}, BatchNormAttrs{Epsilon: 1e-5, Momentum: 0.9}},
		{"is_test absent", 6, nil, BatchNormAttrs{Epsilon: 1e-5, Momentum: 0.9, Spatial: true, Training: true}},
		{"is_test 0", 6, []Attr{aI("is_test", 0)}, BatchNormAttrs{Epsilon: 1e-5, Momentum: 0.9, Spatial: true, Training: true}},
		{"is_test from 7", 7, []Attr{aI("is_test", 0)}, BatchNormAttrs{Epsilon: 1e-5, Momentum: 0.9, Spatial: true}},
	}
	for _, c := range cases {
		_, r, err := BindNode(nd("BatchNormalization", []string{"x", "s", "b", "m", "v"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := *r.(*BatchNormAttrs); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
