package cpu

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestCompare(t *testing.T) {
	boolOut := []payload.DType{payload.Bool}
	a := mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	b := mk([]int{3}, []float32{2, 2, 5})
	cases := []struct {
		op   string
		ins  []*tensor
		want []bool
	}{
		{"Equal", []*tensor{a, b}, []bool{false, true, false, false, false, false}},
		{"Less", []*tensor{a, b}, []bool{true, false, true, false, false, false}},
		{"Greater", []*tensor{a, b}, []bool{false, false, false, true, true, true}},
		{"LessOrEqual", []*tensor{a, b}, []bool{true, true, true, false, false, false}},
		{"GreaterOrEqual", []*tensor{a, b}, []bool{false, true, false, true, true, true}},
		{"Greater", []*tensor{mk([]int{2, 1}, []int64{1, 5}), mk([]int{3}, []int64{0, 1, 6})}, []bool{true, false, false, true, true, false}},
		{"Less", []*tensor{mk([]int{}, []int32{2}), mk([]int{2, 3}, []int32{1, 2, 3, 4, 0, -1})}, []bool{false, false, true, true, false, false}},
		{"Equal", []*tensor{mk([]int{3}, []float64{1, 2, 3}), mk([]int{1}, []float64{2})}, []bool{false, true, false}},
		{"Equal", []*tensor{mk([]int{3}, []uint8{1, 2, 3}), mk([]int{}, []uint8{3})}, []bool{false, false, true}},
		{"Equal", []*tensor{mk([]int{2}, []bool{true, false}), mk([]int{2, 1}, []bool{true, false})}, []bool{true, false, false, true}},
		{"And", []*tensor{mk([]int{2}, []bool{true, false}), mk([]int{2, 1}, []bool{true, false})}, []bool{true, false, false, false}},
		{"Or", []*tensor{mk([]int{2}, []bool{true, false}), mk([]int{2, 1}, []bool{true, false})}, []bool{true, true, true, false}},
		{"Xor", []*tensor{mk([]int{2}, []bool{true, false}), mk([]int{2, 1}, []bool{true, false})}, []bool{false, true, true, false}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node(c.op, []string{"a", "b"}), opset: 16, outTypes: boolOut}, c.ins...)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if d := cmp.Diff(c.want, outs[0].bools()); d != "" {
			t.Errorf("%s %v %v: %s", c.op, c.ins[0].shape, c.ins[1].shape, d)
		}
	}
	errCases := []struct {
		op   string
		ins  []*tensor
		want error
	}{
		{"Less", []*tensor{mk([]int{1}, []bool{true}), mk([]int{1}, []bool{true})}, errs.Unsupported},
		{"And", []*tensor{a, a}, errs.Unsupported},
		{"Equal", []*tensor{a, mk([]int{1}, []int64{1})}, errs.InvalidArtifact},
		{"Equal", []*tensor{a, mk([]int{2}, []float32{1, 2})}, errs.ShapeMismatch},
	}
	for _, c := range errCases {
		_, err := runNode(t, nodeCase{node: node(c.op, []string{"a", "b"}), outTypes: boolOut}, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.op, err, c.want)
		}
	}
}

func TestWhere(t *testing.T) {
	cond := mk([]int{2, 1}, []bool{true, false})
	cases := []struct {
		name string
		ins  []*tensor
		dt   payload.DType
		want any
	}{
		{"f32 3-way", []*tensor{cond, mk([]int{3}, []float32{1, 2, 3}), mk([]int{}, []float32{-1})}, payload.Float32, []float32{1, 2, 3, -1, -1, -1}},
		{"i64 same", []*tensor{mk([]int{3}, []bool{true, false, true}), mk([]int{3}, []int64{1, 2, 3}), mk([]int{3}, []int64{4, 5, 6})}, payload.Int64, []int64{1, 5, 3}},
		{"u8 cond vector", []*tensor{mk([]int{3}, []bool{false, true, false}), mk([]int{2, 1}, []uint8{7, 8}), mk([]int{2, 3}, []uint8{1, 2, 3, 4, 5, 6})}, payload.Uint8, []uint8{1, 7, 3, 4, 8, 6}},
		{"i16", []*tensor{cond, mk([]int{1, 2}, []int16{1, 2}), mk([]int{2, 2}, []int16{5, 6, 7, 8})}, payload.Int16, []int16{1, 2, 7, 8}},
		{"bool", []*tensor{cond, mk([]int{2}, []bool{true, true}), mk([]int{2}, []bool{false, false})}, payload.Bool, []bool{true, true, false, false}},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("Where", []string{"c", "x", "y"}), opset: 16, outTypes: []payload.DType{c.dt}}, c.ins...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got any
		switch c.dt {
		case payload.Float32:
			got = outs[0].f32()
		case payload.Int64:
			got = outs[0].i64()
		case payload.Uint8:
			got = outs[0].u8()
		case payload.Int16:
			got = elems[int16](outs[0])
		case payload.Bool:
			got = outs[0].bools()
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
	}
	f := mk([]int{2}, []float32{1, 2})
	for _, c := range []struct {
		name string
		ins  []*tensor
		want error
	}{
		{"cond type", []*tensor{f, f, f}, errs.InvalidArtifact},
		{"x y types", []*tensor{cond, f, mk([]int{2}, []int32{1, 2})}, errs.InvalidArtifact},
		{"shape", []*tensor{mk([]int{3}, []bool{true, true, true}), f, f}, errs.ShapeMismatch},
	} {
		_, err := runNode(t, nodeCase{node: node("Where", []string{"c", "x", "y"})}, c.ins...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestExpand(t *testing.T) {
	cases := []struct {
		name  string
		x     *tensor
		shape []int64
		oshp  []int
		want  any
	}{
		{"row", mk([]int{3}, []float32{1, 2, 3}), []int64{2, 3}, []int{2, 3}, []float32{1, 2, 3, 1, 2, 3}},
		{"col", mk([]int{2, 1}, []float32{1, 2}), []int64{2, 3}, []int{2, 3}, []float32{1, 1, 1, 2, 2, 2}},
		{"ones keep input", mk([]int{2, 1}, []float32{1, 2}), []int64{1, 1, 2}, []int{1, 2, 2}, []float32{1, 1, 2, 2}},
		{"shorter shape", mk([]int{2, 2}, []float32{1, 2, 3, 4}), []int64{2}, []int{2, 2}, []float32{1, 2, 3, 4}},
		{"int64 scalar", mk([]int{}, []int64{7}), []int64{3}, []int{3}, []int64{7, 7, 7}},
		{"bool", mk([]int{1, 2}, []bool{true, false}), []int64{2, 1, 2}, []int{2, 1, 2}, []bool{true, false, true, false}},
		{"empty", mk([]int{1}, []float32{1}), []int64{0}, []int{0}, []float32(nil)},
	}
	for _, c := range cases {
		outs, err := runNode(t, nodeCase{node: node("Expand", []string{"x", "s"}), opset: 13, outTypes: []payload.DType{c.x.dt}},
			c.x, mk([]int{len(c.shape)}, c.shape))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !sameShape(outs[0].shape, c.oshp) {
			t.Errorf("%s: shape %v, want %v", c.name, outs[0].shape, c.oshp)
		}
		var got any
		switch c.x.dt {
		case payload.Float32:
			got = outs[0].f32()
		case payload.Int64:
			got = outs[0].i64()
		case payload.Bool:
			got = outs[0].bools()
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
	}
	_, err := runNode(t, nodeCase{node: node("Expand", []string{"x", "s"})}, mk([]int{3}, []float32{1, 2, 3}), mk([]int{1}, []int64{2}))
	if !errors.Is(err, errs.ShapeMismatch) {
		t.Errorf("bad expand: %v", err)
	}
	_, err = runNode(t, nodeCase{node: node("Expand", []string{"x", "s"})}, mk([]int{3}, []float32{1, 2, 3}), mk([]int{1}, []int32{3}))
	if !errors.Is(err, errs.InvalidArtifact) {
		t.Errorf("int32 shape: %v", err)
	}
}
