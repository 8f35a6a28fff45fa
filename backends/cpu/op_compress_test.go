package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestCompress(t *testing.T) {
	cm := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("Compress", []string{"x", "c"}, attrs...), opset: 11}
	}
	x := mk([]int{3, 2}, []float32{1, 2, 3, 4, 5, 6})
	cond := func(v ...bool) *tensor { return mk([]int{len(v)}, v) }
	runDMCases(t, []dmCase{
		{name: "axis 0", c: cm(aInt("axis", 0)), ins: []*tensor{x, cond(false, true, true)}, shapes: [][]int{{2, 2}}, vals: []string{"[3 4 5 6]"}},
		{name: "axis 1", c: cm(aInt("axis", 1)), ins: []*tensor{x, cond(false, true)}, shapes: [][]int{{3, 1}}, vals: []string{"[2 4 6]"}},
		{name: "negative axis short condition", c: cm(aInt("axis", -1)), ins: []*tensor{x, cond(true)}, shapes: [][]int{{3, 1}}, vals: []string{"[1 3 5]"}},
		{name: "flattened", c: cm(), ins: []*tensor{x, cond(false, true, false, false, true)}, shapes: [][]int{{2}}, vals: []string{"[2 5]"}},
		{name: "long condition", c: cm(aInt("axis", 0)), ins: []*tensor{x, cond(true, false, true, true, true)}, shapes: [][]int{{2, 2}}, vals: []string{"[1 2 5 6]"}},
		{name: "none kept", c: cm(aInt("axis", 0)), ins: []*tensor{mk([]int{2, 2}, []int64{1, 2, 3, 4}), cond(false, false)}, shapes: [][]int{{0, 2}}},
		{name: "int condition refused", c: cm(), ins: []*tensor{x, mk([]int{1}, []int64{1})}, err: errs.Unsupported},
		{name: "axis out of range", c: cm(aInt("axis", 2)), ins: []*tensor{x, cond(true)}, err: errs.ShapeMismatch},
	})
	dmNoAllocs(t, "compress", cm(aInt("axis", 1)), mk([]int{2, 3, 2}, make([]int64, 12)), cond(true, false, true))
}
