package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestTensorScatter(t *testing.T) {
	ts := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("TensorScatter", []string{"past", "update", "wi"}, attrs...), opset: 24}
	}
	// Cache [2, 4, 2] holding 0..15, updates of 1 or 2 rows.
	past := mk([]int{2, 4, 2}, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	up1 := mk([]int{2, 1, 2}, []float32{-1, -2, -3, -4})
	up2 := mk([]int{2, 2, 2}, []float32{-1, -2, -3, -4, -5, -6, -7, -8})
	wi := func(v ...int64) *tensor { return mk([]int{len(v)}, v) }
	runDMCases(t, []dmCase{
		{name: "linear", c: ts(), ins: []*tensor{past, up1, wi(1, 3)}, shapes: [][]int{{2, 4, 2}},
			vals: []string{"[0 1 -1 -2 4 5 6 7 8 9 10 11 12 13 -3 -4]"}},
		{name: "no write indices", c: ts(), ins: []*tensor{past, up2}, vals: []string{"[-1 -2 -3 -4 4 5 6 7 -5 -6 -7 -8 12 13 14 15]"}},
		{name: "circular wraps", c: ts(aString("mode", "circular")), ins: []*tensor{past, up2, wi(3, 5)},
			vals: []string{"[-3 -4 2 3 4 5 -1 -2 8 9 -5 -6 -7 -8 14 15]"}},
		{name: "axis 1 of 4-D", c: ts(aInt("axis", 1)), ins: []*tensor{mk([]int{1, 3, 1, 1}, []int64{7, 8, 9}), mk([]int{1, 1, 1, 1}, []int64{0}), wi(2)},
			vals: []string{"[7 8 0]"}},
		{name: "middle axis with prefix", c: ts(aInt("axis", 2)), ins: []*tensor{mk([]int{1, 2, 3}, []int32{1, 2, 3, 4, 5, 6}), mk([]int{1, 2, 1}, []int32{0, 0}), wi(1)},
			vals: []string{"[1 0 3 4 0 6]"}},
		{name: "linear overflow", c: ts(), ins: []*tensor{past, up2, wi(3, 0)}, err: errs.ShapeMismatch},
		{name: "negative index", c: ts(aString("mode", "circular")), ins: []*tensor{past, up1, wi(-1, 0)}, err: errs.ShapeMismatch},
		{name: "int32 indices refused", c: ts(), ins: []*tensor{past, up1, mk([]int{2}, []int32{0, 0})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "tensorscatter", ts(aString("mode", "circular")), past, up2, wi(3, 1))
}
