package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestLayerNormalizationRule(t *testing.T) {
	ln := func(ins, outs []string, attrs ...Attr) *Node { return nd("LayerNormalization", ins, outs, attrs...) }
	xs := []string{"x", "s"}
	all := []string{"y", "mean", "inv"}
	runNNCases(t, []nnCase{
		{name: "last axis", node: ln(xs, all), in: []nnIn{kin(payload.Float16, 2, 5, 8), kin(payload.Float16, 8)},
			want: []nnOut{ko(payload.Float16, 2, 5, 8), ko(f32, 2, 5, 1), ko(f32, 2, 5, 1)}},
		{name: "axis 1 float64 stash", node: ln([]string{"x", "s", "b"}, all[:2], aI("axis", 1), aI("stash_type", int64(payload.Float64))),
			in:   []nnIn{kin(f32, 2, 5, 8), kin(f32, 5, 8), kin(f32, 5, 8)},
			want: []nnOut{ko(f32, 2, 5, 8), ko(payload.Float64, 2, 1, 1)}},
		{name: "unknown dims", node: ln(xs, all, aI("axis", -2)), in: []nnIn{kin(f32, -1, 7, 8), kin(f32, 7, 8)},
			want: []nnOut{ko(f32, -1, 7, 8), ko(f32, -1, 1, 1), ko(f32, -1, 1, 1)}},
		{name: "unknown rank", node: ln(xs, all), in: []nnIn{uin(f32), kin(f32, 8)}, want: []nnOut{uo(f32), uo(f32), uo(f32)}},
		{name: "skipped mean", node: ln(xs, []string{"y", "", "inv"}), in: []nnIn{kin(f32, 3, 4), kin(f32, 4)}, want: []nnOut{ko(f32, 3, 4), {}, ko(f32, 3, 1)}},
		{name: "axis out of range", node: ln(xs, all, aI("axis", 3)), in: []nnIn{kin(f32, 2, 5, 8), kin(f32, 1)}, err: errs.InvalidArtifact, errHas: "axis 3"},
		{name: "axis at run time", runtime: true, node: ln(xs, all[:1], aI("axis", -4)), in: []nnIn{kin(f32, 2, 5, 8), kin(f32, 1)}, err: errs.ShapeMismatch, errHas: "axis -4"},
		{name: "bad stash type", node: ln(xs, all, aI("stash_type", 99)), err: errs.InvalidArtifact, errHas: "stash_type"},
		{name: "scale missing", node: ln([]string{"x"}, all), err: errs.InvalidArtifact, errHas: "input 1 (Scale)"},
		{name: "before opset 17", opset: 16, node: ln(xs, all), err: errs.Unsupported, errHas: "opset 16"},
	})
}
