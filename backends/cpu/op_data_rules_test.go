package cpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// TestDataRuleShapes runs data-movement kernels whose output shapes come
// from their descriptors' rules (and, for data-dependent dims, from the
// kernels' shapers), and checks the shapes and the kernel-side checks.
func TestDataRuleShapes(t *testing.T) {
	i16 := func(v int16) *tensor { return mk([]int{}, []int16{v}) }
	f32s := func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	cases := []struct {
		name  string
		c     nodeCase
		ins   []*tensor
		want  [][]int
		err   error
		check func(t *testing.T, outs []*tensor)
	}{
		{name: "nonzero", c: nodeCase{node: node("NonZero", []string{"x"}), outTypes: []payload.DType{payload.Int64}},
			ins: []*tensor{f32s([]int{2, 3}, 0, 1, 0, 2, 0, 3)}, want: [][]int{{2, 3}},
			check: func(t *testing.T, outs []*tensor) {
				got, want := fmt.Sprint(outs[0].i64()), fmt.Sprint([]int64{0, 1, 1, 1, 0, 2})
				if got != want {
					t.Errorf("got indices %s, want %s", got, want)
				}
			}},
		{name: "nonzero none", c: nodeCase{node: node("NonZero", []string{"x"}), outTypes: []payload.DType{payload.Int64}},
			ins: []*tensor{f32s([]int{3}, 0, 0, 0)}, want: [][]int{{1, 0}}},
		{name: "range int16", c: nodeCase{node: node("Range", []string{"a", "b", "c"}), outTypes: []payload.DType{payload.Int16}},
			ins: []*tensor{i16(10), i16(-3), i16(-4)}, want: [][]int{{4}},
			check: func(t *testing.T, outs []*tensor) {
				if got, want := fmt.Sprint(elems[int16](outs[0])), fmt.Sprint([]int16{10, 6, 2, -2}); got != want {
					t.Errorf("got %s, want %s", got, want)
				}
			}},
		{name: "range int16 zero delta", c: nodeCase{node: node("Range", []string{"a", "b", "c"}), outTypes: []payload.DType{payload.Int16}},
			ins: []*tensor{i16(0), i16(3), i16(0)}, err: errs.ShapeMismatch},
		{name: "range int64", c: nodeCase{node: node("Range", []string{"a", "b", "c"}), outTypes: []payload.DType{payload.Int64}},
			ins: []*tensor{mk([]int{}, []int64{1}), mk([]int{}, []int64{10}), mk([]int{}, []int64{3})}, want: [][]int{{3}}},
		{name: "range float32", c: nodeCase{node: node("Range", []string{"a", "b", "c"})},
			ins: []*tensor{f32s([]int{}, 0), f32s([]int{}, 1), f32s([]int{}, 0.3)}, want: [][]int{{4}}},
		{name: "split num_outputs", c: nodeCase{node: &model.Node{Name: "n", OpType: "Split", Inputs: []string{"x"}, Outputs: []string{"a", "b", "c"}, Attrs: []model.Attr{aInt("num_outputs", 3)}}, opset: 18},
			ins: []*tensor{f32s([]int{7}, 0, 1, 2, 3, 4, 5, 6)}, want: [][]int{{3}, {3}, {1}}},
		{name: "shape span", c: nodeCase{node: node("Shape", []string{"x"}, aInt("start", 1)), opset: 15, outTypes: []payload.DType{payload.Int64}},
			ins: []*tensor{f32s([]int{2, 3, 1}, 0, 0, 0, 0, 0, 0)}, want: [][]int{{2}},
			check: func(t *testing.T, outs []*tensor) {
				if got := fmt.Sprint(outs[0].i64()); got != "[3 1]" {
					t.Errorf("got %s, want [3 1]", got)
				}
			}},
		{name: "flatten", c: nodeCase{node: node("Flatten", []string{"x"}, aInt("axis", 2))},
			ins: []*tensor{f32s([]int{1, 2, 3}, 0, 0, 0, 0, 0, 0)}, want: [][]int{{2, 3}}},
		{name: "unsqueeze", c: nodeCase{node: node("Unsqueeze", []string{"x", "a"}), opset: 13},
			ins: []*tensor{f32s([]int{2}, 0, 0), i64s(0, -1)}, want: [][]int{{1, 2, 1}}},
		{name: "squeeze not one", c: nodeCase{node: node("Squeeze", []string{"x", "a"}), opset: 13},
			ins: []*tensor{f32s([]int{2}, 0, 0), i64s(0)}, err: errs.ShapeMismatch},
		{name: "tile before opset 6", c: nodeCase{node: node("Tile", []string{"x", "t", "a"}), opset: 5},
			ins: []*tensor{f32s([]int{2}, 0, 0), mk([]int{}, []int64{2}), mk([]int{}, []int64{0})}, err: errs.Unsupported},
		{name: "depthtospace crd", c: nodeCase{node: node("DepthToSpace", []string{"x"}, aInt("blocksize", 2), aString("mode", "CRD")), opset: 13},
			ins: []*tensor{f32s([]int{1, 4, 1, 1}, 1, 2, 3, 4)}, want: [][]int{{1, 1, 2, 2}}},
		{name: "trilu rank 1", c: nodeCase{node: node("Trilu", []string{"x"}), opset: 14},
			ins: []*tensor{f32s([]int{2}, 1, 2)}, err: errs.ShapeMismatch},
		{name: "gatherelements rank", c: nodeCase{node: node("GatherElements", []string{"x", "i"}), opset: 13},
			ins: []*tensor{f32s([]int{2, 2}, 1, 2, 3, 4), i64s(0)}, err: errs.ShapeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outs, err := runNode(t, c.c, c.ins...)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got error %v, want one wrapping %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range c.want {
				if got := fmt.Sprint(outs[j].shape); got != fmt.Sprint(w) {
					t.Errorf("output %d: got shape %s, want %v", j, got, w)
				}
			}
			if c.check != nil {
				c.check(t, outs)
			}
		})
	}
}
