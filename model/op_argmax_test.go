package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestArgMaxRule(t *testing.T) {
	arg := func(op string, attrs ...Attr) *Node { return nd(op, []string{"x"}, []string{"y"}, attrs...) }
	runNNCases(t, []nnCase{
		{name: "default", opset: 13, node: arg("ArgMax"), in: []nnIn{kin(f32, 2, 3, 4)}, want: []nnOut{ko(i64, 1, 3, 4)}},
		{name: "last axis", opset: 13, node: arg("ArgMin", aI("axis", -1)), in: []nnIn{kin(i64, 2, 3, 4)}, want: []nnOut{ko(i64, 2, 3, 1)}},
		{name: "no keepdims", opset: 11, node: arg("ArgMax", aI("axis", 1), aI("keepdims", 0)), in: []nnIn{kin(f32, 2, 3, 4)}, want: []nnOut{ko(i64, 2, 4)}},
		{name: "select last", opset: 12, node: arg("ArgMin", aI("select_last_index", 1)), in: []nnIn{kin(f32, 5)}, want: []nnOut{ko(i64, 1)}},
		{name: "to a scalar", opset: 13, node: arg("ArgMax", aI("keepdims", 0)), in: []nnIn{kin(f32, 5)}, want: []nnOut{ko(i64)}},
		{name: "unknown dims", opset: 13, node: arg("ArgMax", aI("axis", 1)), in: []nnIn{kin(f32, -1, -1, 4)}, want: []nnOut{ko(i64, -1, 1, 4)}},
		{name: "unknown rank", opset: 13, node: arg("ArgMax"), in: []nnIn{uin(f32)}, want: []nnOut{uo(i64)}},
		{name: "bad axis", opset: 13, node: arg("ArgMax", aI("axis", 3)), in: []nnIn{kin(f32, 2, 3, 4)}, err: errs.InvalidArtifact, errHas: "axis 3"},
		{name: "empty axis at run time", opset: 13, runtime: true, node: arg("ArgMax"), in: []nnIn{kin(f32, 0, 2)}, err: errs.ShapeMismatch, errHas: "empty"},
		{name: "keepdims not an int", opset: 13, node: arg("ArgMin", aS("keepdims", "yes")), err: errs.InvalidArtifact, errHas: "keepdims"},
	})
}

func TestArgMaxAttrs(t *testing.T) {
	cases := []struct {
		name  string
		opset int64
		attrs []Attr
		want  ArgAttrs
	}{
		{"defaults", 13, nil, ArgAttrs{KeepDims: true}},
		{"set", 13, []Attr{aI("axis", -1), aI("keepdims", 0), aI("select_last_index", 1)}, ArgAttrs{Axis: -1, SelectLast: true}},
		{"select_last_index before 12", 11, []Attr{aI("select_last_index", 1)}, ArgAttrs{KeepDims: true}},
	}
	for _, c := range cases {
		_, r, err := BindNode(nd("ArgMax", []string{"x"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := *r.(*ArgAttrs); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
