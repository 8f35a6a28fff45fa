package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestLinearAttentionRule(t *testing.T) {
	la := func(ins []string, attrs ...Attr) *Node {
		return nd("LinearAttention", ins, []string{"y", "state"}, append([]Attr{aI("q_num_heads", 8), aI("kv_num_heads", 4)}, attrs...)...)
	}
	all := []string{"q", "k", "v", "p", "g", "b"}
	linear := aS("update_rule", "linear")
	runNNCases(t, []nnCase{
		{name: "gated delta", opset: 27, node: la(all), in: []nnIn{kin(f32, 2, 4, 64), kin(f32, 2, 4, 32), kin(f32, 2, 4, 48), kin(f32, 2, 4, 8, 12), kin(f32, 2, 4, 4), kin(f32, 2, 4, 1)},
			want: []nnOut{ko(f32, 2, 4, 96), ko(f32, 2, 4, 8, 12)}},
		{name: "linear float16", opset: 27, node: la(all[:3], linear), in: []nnIn{kin(payload.Float16, 1, 3, 64), kin(payload.Float16, 1, 3, 32), kin(payload.Float16, 1, 3, 32)},
			want: []nnOut{ko(payload.Float16, 1, 3, 64), ko(payload.Float16, 1, 4, 8, 8)}},
		{name: "partial", opset: 27, node: la(all[:3], linear), in: []nnIn{kin(f32, -1, -1, 64), uin(f32), kin(f32, 2, -1, -1)},
			want: []nnOut{ko(f32, 2, -1, -1), ko(f32, 2, 4, 8, -1)}},
		{name: "decay width", opset: 27, node: la(all), in: []nnIn{kin(f32, 2, 4, 64), kin(f32, 2, 4, 32), kin(f32, 2, 4, 32), nnIn{absent: true}, kin(f32, 2, 4, 5), kin(f32, 2, 4, 4)},
			err: errs.InvalidArtifact, errHas: "input 4"},
		{name: "beta width", opset: 27, runtime: true, node: la(all), in: []nnIn{kin(f32, 2, 4, 64), kin(f32, 2, 4, 32), kin(f32, 2, 4, 32), nnIn{absent: true}, kin(f32, 2, 4, 4), kin(f32, 2, 4, 3)},
			err: errs.ShapeMismatch, errHas: "input 5"},
		{name: "head sizes", opset: 27, node: la(all[:3], linear), in: []nnIn{kin(f32, 2, 4, 64), kin(f32, 2, 4, 16), kin(f32, 2, 4, 32)}, err: errs.InvalidArtifact, errHas: "head sizes"},
		{name: "past shape", opset: 27, node: la(all[:4], linear), in: []nnIn{kin(f32, 2, 4, 64), kin(f32, 2, 4, 32), kin(f32, 2, 4, 32), kin(f32, 2, 4, 8, 9)}, err: errs.InvalidArtifact, errHas: "past_state"},
		{name: "rank 2", opset: 27, node: la(all[:3], linear), in: []nnIn{kin(f32, 4, 64), kin(f32, 2, 4, 32), kin(f32, 2, 4, 32)}, err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "gated without decay", opset: 27, node: la(all[:3], aS("update_rule", "gated")), err: errs.InvalidArtifact, errHas: "decay"},
		{name: "linear with beta", opset: 27, node: la([]string{"q", "k", "v", "", "", "b"}, linear), err: errs.InvalidArtifact, errHas: "beta"},
		{name: "bad rule", opset: 27, node: la(all[:3], aS("update_rule", "fast")), err: errs.InvalidArtifact, errHas: "update_rule"},
		{name: "heads", opset: 27, node: nd("LinearAttention", all[:3], []string{"y"}, aI("q_num_heads", 6), aI("kv_num_heads", 4), linear), err: errs.InvalidArtifact, errHas: "multiple"},
		{name: "before opset 27", opset: 26, node: la(all), err: errs.Unsupported, errHas: "opset 26"},
	})
}
