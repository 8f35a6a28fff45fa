package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestGemmRule(t *testing.T) {
	g := func(ins []string, attrs ...Attr) *Node { return nd("Gemm", ins, []string{"y"}, attrs...) }
	abc := []string{"a", "b", "c"}
	ab := []string{"a", "b"}
	runNNCases(t, []nnCase{
		{name: "plain", opset: 13, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 5)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "transposed", opset: 13, node: g(abc, aI("transA", 1), aI("transB", 1)), in: []nnIn{kin(f32, 4, 3), kin(f32, 5, 4), kin(f32, 3, 1)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "C scalar", opset: 13, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "no C from 11", opset: 11, node: g(ab), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "float64", opset: 13, node: g(ab), in: []nnIn{kin(payload.Float64, 3, 4), kin(payload.Float64, 4, 5)}, want: []nnOut{ko(payload.Float64, 3, 5)}},
		{name: "unknown M", opset: 13, node: g(abc), in: []nnIn{kin(f32, -1, 4), kin(f32, 4, 5), kin(f32, 5)}, want: []nnOut{ko(f32, -1, 5)}},
		{name: "unknown A rank", opset: 13, node: g(abc), in: []nnIn{uin(f32), kin(f32, 4, 5), kin(f32, 3, 5)}, want: []nnOut{ko(f32, -1, 5)}},
		{name: "unknown B", opset: 13, node: g(ab, aI("transB", 1)), in: []nnIn{kin(f32, 3, 4), uin(f32)}, want: []nnOut{ko(f32, 3, -1)}},
		{name: "opset 7 broadcasts C", opset: 7, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 1, 5)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "opset 6 broadcast", opset: 6, node: g(abc, aI("broadcast", 1)), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 5)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "opset 6 full C", opset: 6, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 3, 5)}, want: []nnOut{ko(f32, 3, 5)}},
		{name: "opset 6 C must be MxN", opset: 6, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 5)}, err: errs.InvalidArtifact, errHas: "does not broadcast"},
		{name: "C required before 11", opset: 9, node: g(ab), err: errs.InvalidArtifact, errHas: "input 2 (C)"},
		{name: "inner mismatch", opset: 13, node: g(ab), in: []nnIn{kin(f32, 3, 2), kin(f32, 5, 3)}, err: errs.InvalidArtifact, errHas: "inner"},
		{name: "inner mismatch at run time", opset: 13, runtime: true, node: g(ab, aI("transB", 1)), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5)}, err: errs.ShapeMismatch, errHas: "inner"},
		{name: "A rank", opset: 13, node: g(ab), in: []nnIn{kin(f32, 3), kin(f32, 3, 3)}, err: errs.InvalidArtifact, errHas: "rank"},
		{name: "C too big", opset: 13, runtime: true, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 4, 5)}, err: errs.ShapeMismatch, errHas: "does not broadcast"},
		{name: "C rank 3", opset: 13, node: g(abc), in: []nnIn{kin(f32, 3, 4), kin(f32, 4, 5), kin(f32, 1, 3, 5)}, err: errs.InvalidArtifact, errHas: "does not broadcast"},
		{name: "transA not an int", opset: 13, node: g(ab, aF("transA", 1)), err: errs.InvalidArtifact, errHas: "transA"},
	})
}

func TestGemmAttrs(t *testing.T) {
	cases := []struct {
		name  string
		opset int64
		attrs []Attr
		want  GemmAttrs
	}{
		{"defaults", 13, nil, GemmAttrs{Alpha: 1, Beta: 1, BroadcastC: true}},
		{"set", 13, []Attr{aI("transA", 1), aI("transB", 1), aF("alpha", 0.5), aF("beta", 2)}, GemmAttrs{TransA: true, TransB: true, Alpha: 0.5, Beta: 2, BroadcastC: true}},
		{"opset 6 default", 6, nil, GemmAttrs{Alpha: 1, Beta: 1}},
		{"opset 6 broadcast", 6, []Attr{aI("broadcast", 1)}, GemmAttrs{Alpha: 1, Beta: 1, BroadcastC: true}},
		{"broadcast ignored from 7", 7, []Attr{aI("broadcast", 0)}, GemmAttrs{Alpha: 1, Beta: 1, BroadcastC: true}},
	}
	for _, c := range cases {
		_, r, err := BindNode(nd("Gemm", []string{"a", "b", "c"}, []string{"y"}, c.attrs...), c.opset)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := *r.(*GemmAttrs); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
