package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestInstanceNormalizationRule(t *testing.T) {
	in := func(attrs ...Attr) *Node {
		return nd("InstanceNormalization", []string{"x", "s", "b"}, []string{"y"}, attrs...)
	}
	runNNCases(t, []nnCase{
		{name: "4-D", node: in(), in: []nnIn{kin(f32, 1, 3, 8, 8), kin(f32, 3), kin(f32, 3)}, want: []nnOut{ko(f32, 1, 3, 8, 8)}},
		{name: "opset 1", opset: 1, node: in(aIs("consumed_inputs", 0, 0, 0)), in: []nnIn{kin(f32, 2, 3, 5), kin(f32, 3), kin(f32, 3)}, want: []nnOut{ko(f32, 2, 3, 5)}},
		{name: "unknown dims", node: in(), in: []nnIn{kin(f32, -1, -1, 5), kin(f32, 3), kin(f32, -1)}, want: []nnOut{ko(f32, -1, -1, 5)}},
		{name: "unknown rank", node: in(), in: []nnIn{uin(f32), kin(f32, 3), kin(f32, 3)}, want: []nnOut{uo(f32)}},
		{name: "rank 2", node: in(), in: []nnIn{kin(f32, 1, 2), kin(f32, 2), kin(f32, 2)}, err: errs.InvalidArtifact, errHas: "rank 3"},
		{name: "channels at run time", runtime: true, node: in(), in: []nnIn{kin(f32, 1, 2, 3), kin(f32, 3), kin(f32, 2)}, err: errs.ShapeMismatch, errHas: "input 1"},
		{name: "B missing", node: nd("InstanceNormalization", []string{"x", "s"}, []string{"y"}), err: errs.InvalidArtifact, errHas: "input 2 (B)"},
		{name: "epsilon not a float", node: in(aS("epsilon", "x")), err: errs.InvalidArtifact, errHas: "epsilon"},
	})
}
