package cpu

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestArgMaxMin(t *testing.T) {
	x := mk([]int{2, 3}, []float32{1, 5, 5, 7, 0, 7})
	out := []payload.DType{payload.Int64}
	cases := []struct {
		op    string
		attrs []model.Attr
		shape []int
		want  []int64
	}{
		{"ArgMax", nil, []int{1, 3}, []int64{1, 0, 1}},
		{"ArgMax", []model.Attr{aInt("axis", 1)}, []int{2, 1}, []int64{1, 0}},
		{"ArgMax", []model.Attr{aInt("axis", -1), aInt("select_last_index", 1)}, []int{2, 1}, []int64{2, 2}},
		{"ArgMax", []model.Attr{aInt("axis", 1), aInt("keepdims", 0)}, []int{2}, []int64{1, 0}},
		{"ArgMin", []model.Attr{aInt("axis", -2), aInt("keepdims", 0)}, []int{3}, []int64{0, 1, 0}},
		{"ArgMin", []model.Attr{aInt("axis", 1)}, []int{2, 1}, []int64{0, 1}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node(c.op, []string{"x"}, c.attrs...), opset: 13, outTypes: out}, x)
		if err != nil {
			t.Fatalf("%s %v: %v", c.op, c.attrs, err)
		}
		if !sameShape(outs[0].shape, c.shape) {
			t.Errorf("%s %v: shape %v, want %v", c.op, c.attrs, outs[0].shape, c.shape)
		}
		if d := cmp.Diff(c.want, outs[0].i64()); d != "" {
			t.Errorf("%s %v: %s", c.op, c.attrs, d)
		}
	}
	outs, err := runNode(t, nodeCase{node: node("ArgMin", []string{"x"}, aInt("axis", 1), aInt("select_last_index", 1)), opset: 12, outTypes: out},
		mk([]int{1, 4}, []int32{3, 1, 2, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int64{3}, outs[0].i64()); d != "" {
		t.Errorf("int32 last: %s", d)
	}
	for _, c := range []struct {
		name string
		c    nodeCase
		ins  []*tensor
		want error
	}{
		{"axis", nodeCase{node: node("ArgMax", []string{"x"}, aInt("axis", 2)), outTypes: out}, []*tensor{x}, errs.InvalidArtifact},
		{"out type", nodeCase{node: node("ArgMax", []string{"x"}), outTypes: []payload.DType{payload.Int32}}, []*tensor{x}, errs.InvalidArtifact},
		{"empty axis", nodeCase{node: node("ArgMax", []string{"x"}), outTypes: out}, []*tensor{mk([]int{0, 2}, []float32{})}, errs.ShapeMismatch},
		{"bool", nodeCase{node: node("ArgMax", []string{"x"}), outTypes: out}, []*tensor{mk([]int{1}, []bool{true})}, errs.Unsupported},
	} {
		_, err := runNode(t, c.c, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}
