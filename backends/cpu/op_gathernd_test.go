package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestGatherND(t *testing.T) {
	g := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("GatherND", []string{"x", "i"}, attrs...), opset: 13}
	}
	m := mk([]int{2, 2}, []int32{0, 1, 2, 3})
	c := mk([]int{2, 2, 2}, []float32{0, 1, 2, 3, 4, 5, 6, 7})
	ix := func(shape []int, v ...int64) *tensor { return mk(shape, v) }
	// The spec's examples.
	runDMCases(t, []dmCase{
		{name: "elements", c: g(), ins: []*tensor{m, ix([]int{2, 2}, 0, 0, 1, 1)}, shapes: [][]int{{2}}, vals: []string{"[0 3]"}},
		{name: "rows", c: g(), ins: []*tensor{m, ix([]int{2, 1}, 1, 0)}, shapes: [][]int{{2, 2}}, vals: []string{"[2 3 0 1]"}},
		{name: "3-D pairs", c: g(), ins: []*tensor{c, ix([]int{2, 2}, 0, 1, 1, 0)}, shapes: [][]int{{2, 2}}, vals: []string{"[2 3 4 5]"}},
		{name: "nested", c: g(), ins: []*tensor{c, ix([]int{2, 1, 2}, 0, 1, 1, 0)}, shapes: [][]int{{2, 1, 2}}, vals: []string{"[2 3 4 5]"}},
		{name: "batch dims", c: g(aInt("batch_dims", 1)), ins: []*tensor{c, ix([]int{2, 1}, 1, 0)}, shapes: [][]int{{2, 2}}, vals: []string{"[2 3 4 5]"}},
		{name: "negative index", c: g(), ins: []*tensor{m, ix([]int{1, 2}, -1, -2)}, vals: []string{"[2]"}},
		{name: "whole", c: g(), ins: []*tensor{m, ix([]int{1, 0})}, shapes: [][]int{{1, 2, 2}}, vals: []string{"[0 1 2 3]"}},
		{name: "out of range", c: g(), ins: []*tensor{m, ix([]int{1, 2}, 0, 2)}, err: errs.ShapeMismatch},
		{name: "int32 indices refused", c: g(), ins: []*tensor{m, mk([]int{1, 1}, []int32{0})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "gathernd", g(aInt("batch_dims", 1)), c, ix([]int{2, 3, 1}, 0, 1, 1, 1, 0, 0))
}
