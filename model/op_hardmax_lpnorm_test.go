package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestHardmaxLpNormRules(t *testing.T) {
	hm := func(attrs ...Attr) *Node { return nd("Hardmax", []string{"x"}, []string{"y"}, attrs...) }
	lp := func(attrs ...Attr) *Node { return nd("LpNormalization", []string{"x"}, []string{"y"}, attrs...) }
	runNNCases(t, []nnCase{
		{name: "hardmax 13", opset: 13, node: hm(), in: []nnIn{kin(f32, 3, 4, 5)}, want: []nnOut{ko(f32, 3, 4, 5)}},
		{name: "hardmax 11 axis", opset: 11, node: hm(aI("axis", 0)), in: []nnIn{kin(payload.Float64, -1, 4)}, want: []nnOut{ko(payload.Float64, -1, 4)}},
		{name: "hardmax unknown rank", opset: 13, node: hm(), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "hardmax axis at run time", opset: 13, runtime: true, node: hm(aI("axis", 3)), in: []nnIn{kin(f32, 3, 4, 5)}, err: errs.ShapeMismatch, errHas: "axis 3"},
		{name: "lp default", opset: 22, node: lp(), in: []nnIn{kin(f32, 2, 2, 3)}, want: []nnOut{ko(f32, 2, 2, 3)}},
		{name: "lp p1 axis 0", opset: 1, node: lp(aI("p", 1), aI("axis", 0)), in: []nnIn{kin(f32, -1)}, want: []nnOut{ko(f32, -1)}},
		{name: "lp unknown rank", node: lp(), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "lp axis", node: lp(aI("axis", 2)), in: []nnIn{kin(f32, 2, 2)}, err: errs.InvalidArtifact, errHas: "axis 2"},
		{name: "lp p3", node: lp(aI("p", 3)), in: []nnIn{kin(f32, 2, 2)}, err: errs.InvalidArtifact, errHas: "p must be"},
	})
}
