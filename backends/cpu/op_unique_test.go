package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestUnique(t *testing.T) {
	un := func(dt payload.DType, attrs ...model.Attr) nodeCase {
		n := node("Unique", []string{"x"}, attrs...)
		n.Outputs = []string{"y", "idx", "inv", "cnt"}
		return nodeCase{node: n, opset: 11, outTypes: []payload.DType{dt, payload.Int64, payload.Int64, payload.Int64}}
	}
	flat := mk([]int{6}, []float32{2, 1, 1, 3, 4, 3})
	a3 := mk([]int{2, 4, 2}, []float32{1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1})
	nan := float32(math.NaN())
	runDMCases(t, []dmCase{
		{name: "sorted", c: un(payload.Float32), ins: []*tensor{flat}, shapes: [][]int{{4}, {4}, {6}, {4}},
			vals: []string{"[1 2 3 4]", "[1 0 3 4]", "[1 0 0 2 3 2]", "[2 1 2 1]"}},
		{name: "not sorted", c: un(payload.Float32, aInt("sorted", 0)), ins: []*tensor{flat},
			vals: []string{"[2 1 3 4]", "[0 1 3 4]", "[0 1 1 2 3 2]", "[1 2 2 1]"}},
		{name: "axis 0", c: un(payload.Int64, aInt("axis", 0)), ins: []*tensor{mk([]int{3, 3}, []int64{1, 0, 0, 1, 0, 0, 2, 3, 4})}, shapes: [][]int{{2, 3}, {2}, {3}, {2}},
			vals: []string{"[1 0 0 2 3 4]", "[0 2]", "[0 0 1]", "[2 1]"}},
		{name: "axis 1 of 3-D", c: un(payload.Float32, aInt("axis", 1)), ins: []*tensor{a3}, shapes: [][]int{{2, 3, 2}, {3}, {4}, {3}},
			vals: []string{"[0 1 1 1 2 1 0 1 1 1 2 1]", "[1 0 2]", "[1 0 2 0]", "[2 1 1]"}},
		{name: "negative axis not sorted", c: un(payload.Int32, aInt("axis", -1), aInt("sorted", 0)), ins: []*tensor{mk([]int{2, 3}, []int32{5, 1, 5, 6, 2, 6})},
			vals: []string{"[5 1 6 2]", "[0 1]", "[0 1 0]", "[2 1]"}},
		{name: "one element", c: un(payload.Int64), ins: []*tensor{mk([]int{1}, []int64{0})}, vals: []string{"[0]", "[0]", "[0]", "[1]"}},
		{name: "empty", c: un(payload.Float32), ins: []*tensor{mk([]int{0}, []float32{})}, shapes: [][]int{{0}, {0}, {0}, {0}}},
		{name: "nan groups last", c: un(payload.Float32), ins: []*tensor{mk([]int{4}, []float32{nan, 1, nan, 0})}, vals: []string{"[0 1 NaN]", "[3 1 0]", "[2 1 2 0]", "[1 1 2]"}},
		{name: "uint8", c: un(payload.Uint8), ins: []*tensor{mk([]int{4}, []uint8{200, 3, 200, 3})}, vals: []string{"[3 200]", "[1 0]", "[1 0 1 0]", "[2 2]"}},
		{name: "bool refused", c: un(payload.Bool), ins: []*tensor{mk([]int{2}, []bool{true, false})}, err: errs.Unsupported},
		{name: "axis out of range", c: un(payload.Float32, aInt("axis", 2)), ins: []*tensor{mk([]int{2, 2}, []float32{1, 2, 3, 4})}, err: errs.ShapeMismatch},
	})
	// Only Y and counts: the unused outputs, float32 scratch, stay untouched.
	n := node("Unique", []string{"x"})
	n.Outputs = []string{"y", "", "", "cnt"}
	runDMCases(t, []dmCase{{name: "some outputs", c: nodeCase{node: n, opset: 11, outTypes: []payload.DType{payload.Float32, payload.Float32, payload.Float32, payload.Int64}},
		ins: []*tensor{flat}, vals: []string{"[1 2 3 4]", "[0 0 0 0]", "[0 0 0 0 0 0]", "[2 1 2 1]"}}})
	dmNoAllocs(t, "unique", un(payload.Float32, aInt("axis", 1)), a3)
}
