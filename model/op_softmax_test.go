package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestSoftmaxRule(t *testing.T) {
	sm := func(op string, attrs ...Attr) *Node { return nd(op, []string{"x"}, []string{"y"}, attrs...) }
	runNNCases(t, []nnCase{
		{name: "default 13", opset: 13, node: sm("Softmax"), in: []nnIn{kin(f32, 2, 3, 4)}, want: []nnOut{ko(f32, 2, 3, 4)}},
		{name: "default 11", opset: 11, node: sm("LogSoftmax"), in: []nnIn{kin(payload.Float64, 2, 3)}, want: []nnOut{ko(payload.Float64, 2, 3)}},
		{name: "unknown dims", opset: 13, node: sm("Softmax", aI("axis", 1)), in: []nnIn{kin(f32, -1, 3)}, want: []nnOut{ko(f32, -1, 3)}},
		{name: "unknown rank", opset: 13, node: sm("LogSoftmax"), in: []nnIn{uin(f32)}, want: []nnOut{uo(f32)}},
		{name: "scalar", opset: 13, runtime: true, node: sm("Softmax"), in: []nnIn{kin(f32)}, want: []nnOut{ko(f32)}},
		{name: "axis left to the backend at load", opset: 13, node: sm("Softmax", aI("axis", 3)), in: []nnIn{kin(f32, 2, 3)}, want: []nnOut{ko(f32, 2, 3)}},
		{name: "axis at run time", opset: 13, runtime: true, node: sm("Softmax", aI("axis", 3)), in: []nnIn{kin(f32, 2, 3)}, err: errs.ShapeMismatch, errHas: "axis 3"},
		{name: "scalar axis at run time", opset: 11, runtime: true, node: sm("LogSoftmax"), in: []nnIn{kin(f32)}, err: errs.ShapeMismatch, errHas: "axis 1"},
		{name: "two inputs", opset: 13, node: nd("Softmax", []string{"x", "z"}, []string{"y"}), err: errs.InvalidArtifact, errHas: "at most 1"},
		{name: "axis not an int", opset: 13, node: sm("Softmax", aF("axis", 1)), err: errs.InvalidArtifact, errHas: "axis"},
	})
}

func TestSoftmaxAttrs(t *testing.T) {
	cases := []struct {
		name  string
		opset int64
		attrs []Attr
		want  SoftmaxAttrs
	}{
		{"default 1", 1, nil, SoftmaxAttrs{Axis: 1, Coerce: true}},
		{"default 12", 12, nil, SoftmaxAttrs{Axis: 1, Coerce: true}},
		{"default 13", 13, nil, SoftmaxAttrs{Axis: -1}},
		{"axis", 13, []Attr{aI("axis", 0)}, SoftmaxAttrs{Axis: 0}},
	}
	for _, c := range cases {
		for _, op := range []string{"Softmax", "LogSoftmax"} {
			_, r, err := BindNode(nd(op, []string{"x"}, []string{"y"}, c.attrs...), c.opset)
			if err != nil {
				t.Fatalf("%s %s: %v", op, c.name, err)
			}
			if got := *r.(*SoftmaxAttrs); got != c.want {
				t.Errorf("%s %s: got %+v, want %+v", op, c.name, got, c.want)
			}
		}
	}
}
