package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestRMSNormalizationRule(t *testing.T) {
	rn := func(attrs ...Attr) *Node { return nd("RMSNormalization", []string{"x", "s"}, []string{"y"}, attrs...) }
	runNNCases(t, []nnCase{
		{name: "last axis", opset: 23, node: rn(), in: []nnIn{kin(f32, 2, 5, 8), kin(f32, 8)}, want: []nnOut{ko(f32, 2, 5, 8)}},
		{name: "scale type", opset: 23, node: rn(aI("axis", 0)), in: []nnIn{kin(payload.Float16, 2, 5), kin(f32, 2, 5)}, want: []nnOut{ko(f32, 2, 5)}},
		{name: "unknown dims", opset: 23, node: rn(aI("axis", -2)), in: []nnIn{kin(f32, -1, 7, 8), kin(f32, 7, 8)}, want: []nnOut{ko(f32, -1, 7, 8)}},
		{name: "unknown rank", opset: 23, node: rn(), in: []nnIn{uin(f32), kin(f32, 8)}, want: []nnOut{uo(f32)}},
		{name: "axis out of range", opset: 23, node: rn(aI("axis", 3)), in: []nnIn{kin(f32, 2, 5, 8), kin(f32, 1)}, err: errs.InvalidArtifact, errHas: "axis 3"},
		{name: "axis at run time", opset: 23, runtime: true, node: rn(aI("axis", -4)), in: []nnIn{kin(f32, 2, 5, 8), kin(f32, 1)}, err: errs.ShapeMismatch, errHas: "axis -4"},
		{name: "bad stash type", opset: 23, node: rn(aI("stash_type", 99)), err: errs.InvalidArtifact, errHas: "stash_type"},
		{name: "before opset 23", opset: 22, node: rn(), err: errs.Unsupported, errHas: "opset 22"},
	})
}
