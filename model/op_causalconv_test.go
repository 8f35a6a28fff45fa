package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestCausalConvWithStateRule(t *testing.T) {
	cc := func(ins []string, attrs ...Attr) *Node {
		return nd("CausalConvWithState", ins, []string{"y", "state"}, attrs...)
	}
	all := []string{"x", "w", "b", "p"}
	runNNCases(t, []nnCase{
		{name: "all inputs", opset: 27, node: cc(all), in: []nnIn{kin(f32, 2, 4, 8), kin(f32, 4, 1, 3), kin(f32, 4), kin(f32, 2, 4, 2)},
			want: []nnOut{ko(f32, 2, 4, 8), ko(f32, 2, 4, 2)}},
		{name: "kernel size one", opset: 27, node: cc(all[:2], aS("activation", "silu")), in: []nnIn{kin(f32, 2, 4, 8), kin(f32, 4, 1, 1)},
			want: []nnOut{ko(f32, 2, 4, 8), ko(f32, 2, 4, 0)}},
		{name: "partial", opset: 27, node: cc(all), in: []nnIn{kin(f32, -1, 4, -1), kin(f32, -1, 1, -1), kin(f32, 4), kin(f32, 3, -1, 5)},
			want: []nnOut{ko(f32, -1, 4, -1), ko(f32, 3, 4, 5)}},
		{name: "unknown rank", opset: 27, node: cc(all[:2]), in: []nnIn{uin(f32), kin(f32, 4, 1, 3)}, want: []nnOut{uo(f32), ko(f32, -1, 4, 2)}},
		{name: "channels differ", opset: 27, node: cc(all[:2]), in: []nnIn{kin(f32, 2, 4, 8), kin(f32, 3, 1, 3)}, err: errs.InvalidArtifact, errHas: "weight"},
		{name: "empty kernel", opset: 27, node: cc(all[:2]), in: []nnIn{kin(f32, 2, 4, 8), kin(f32, 4, 1, 0)}, err: errs.InvalidArtifact, errHas: "empty"},
		{name: "state length", opset: 27, runtime: true, node: cc(all), in: []nnIn{kin(f32, 2, 4, 8), kin(f32, 4, 1, 3), kin(f32, 4), kin(f32, 2, 4, 3)},
			err: errs.ShapeMismatch, errHas: "past_state"},
		{name: "bias", opset: 27, node: cc(all[:3]), in: []nnIn{kin(f32, 2, 4, 8), kin(f32, 4, 1, 3), kin(f32, 5)}, err: errs.InvalidArtifact, errHas: "bias"},
		{name: "rank 2", opset: 27, node: cc(all[:2]), in: []nnIn{kin(f32, 4, 8), kin(f32, 4, 1, 3)}, err: errs.InvalidArtifact, errHas: "rank 2"},
		{name: "bad activation", opset: 27, node: cc(all[:2], aS("activation", "relu")), err: errs.InvalidArtifact, errHas: "activation"},
		{name: "before opset 27", opset: 26, node: cc(all[:2]), err: errs.Unsupported, errHas: "opset 26"},
	})
}
