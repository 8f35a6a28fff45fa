package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestScatter(t *testing.T) {
	ins3 := []string{"data", "indices", "updates"}
	se := func(opset int64, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("ScatterElements", ins3, attrs...), opset: opset}
	}
	sn := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("ScatterND", ins3, attrs...), opset: 18}
	}
	red := func(r string) model.Attr { return aString("reduction", r) }
	data := mk([]int{1, 5}, []float32{1, 2, 3, 4, 5})
	dup := mk([]int{1, 2}, []int64{1, 1})
	upd := mk([]int{1, 2}, []float32{1.5, 2})
	d33 := mk([]int{3, 3}, []int32{0, 0, 0, 0, 0, 0, 0, 0, 0})
	i23 := mk([]int{2, 3}, []int64{1, 0, 2, 0, 2, 1})
	u23 := mk([]int{2, 3}, []int32{1, 2, 3, 4, 5, 6})
	nd4 := mk([]int{4}, []float32{1, 2, 3, 4})
	m22 := mk([]int{2, 2}, []float32{1, 2, 3, 4})
	runDMCases(t, []dmCase{
		// ONNX's example: data zeros, indices [[1,0,2],[0,2,1]] on axis 0.
		{name: "axis 0", c: se(11), ins: []*tensor{d33, i23, u23}, shapes: [][]int{{3, 3}}, vals: []string{"[4 2 0 1 0 6 0 5 3]"}},
		{name: "axis 1 negative index", c: se(13, aInt("axis", 1)), ins: []*tensor{data, mk([]int{1, 2}, []int32{1, -2}), upd}, vals: []string{"[1 1.5 3 2 5]"}},
		{name: "repeated index last wins", c: se(18, aInt("axis", 1)), ins: []*tensor{data, dup, upd}, vals: []string{"[1 2 3 4 5]"}},
		{name: "add", c: se(18, aInt("axis", 1), red("add")), ins: []*tensor{data, dup, upd}, vals: []string{"[1 5.5 3 4 5]"}},
		{name: "mul", c: se(16, aInt("axis", 1), red("mul")), ins: []*tensor{data, dup, upd}, vals: []string{"[1 6 3 4 5]"}},
		{name: "max", c: se(18, aInt("axis", 1), red("max")), ins: []*tensor{data, dup, mk([]int{1, 2}, []float32{1.5, 3})}, vals: []string{"[1 3 3 4 5]"}},
		{name: "min", c: se(18, aInt("axis", 1), red("min")), ins: []*tensor{data, dup, mk([]int{1, 2}, []float32{1.5, 3})}, vals: []string{"[1 1.5 3 4 5]"}},
		{name: "min int64", c: se(18, red("min")), ins: []*tensor{mk([]int{3}, []int64{5, 5, 5}), mk([]int{2}, []int64{2, 2}), mk([]int{2}, []int64{7, -1})}, vals: []string{"[5 5 -1]"}},
		{name: "bool moves", c: se(11), ins: []*tensor{mk([]int{3}, []bool{false, false, false}), mk([]int{1}, []int64{1}), mk([]int{1}, []bool{true})}, vals: []string{"[false true false]"}},
		{name: "scatter opset 9", c: nodeCase{node: node("Scatter", ins3, aInt("axis", 1)), opset: 9}, ins: []*tensor{data, mk([]int{1, 2}, []int64{1, 3}), upd}, vals: []string{"[1 1.5 3 2 5]"}},
		{name: "index out of range", c: se(11), ins: []*tensor{nd4, mk([]int{1}, []int64{4}), mk([]int{1}, []float32{1})}, err: errs.ShapeMismatch},
		{name: "index below range", c: se(11), ins: []*tensor{nd4, mk([]int{1}, []int64{-5}), mk([]int{1}, []float32{1})}, err: errs.ShapeMismatch},
		{name: "reduction on bool refused", c: se(18, red("add")), ins: []*tensor{mk([]int{1}, []bool{false}), mk([]int{1}, []int64{0}), mk([]int{1}, []bool{true})}, err: errs.Unsupported},
		{name: "float indices refused", c: se(11), ins: []*tensor{nd4, mk([]int{1}, []float32{0}), mk([]int{1}, []float32{1})}, err: errs.Unsupported},
		// ONNX's ScatterND examples.
		{name: "nd elements", c: sn(), ins: []*tensor{mk([]int{8}, []float32{1, 2, 3, 4, 5, 6, 7, 8}), mk([]int{4, 1}, []int64{4, 3, 1, 7}), mk([]int{4}, []float32{9, 10, 11, 12})}, vals: []string{"[1 11 3 10 9 6 7 12]"}},
		{name: "nd slices", c: sn(), ins: []*tensor{mk([]int{3, 2}, []int32{1, 2, 3, 4, 5, 6}), mk([]int{2, 1}, []int64{-1, 0}), mk([]int{2, 2}, []int32{7, 8, 9, 10})}, vals: []string{"[9 10 3 4 7 8]"}},
		{name: "nd add repeated", c: sn(red("add")), ins: []*tensor{m22, mk([]int{2, 1}, []int64{0, 0}), mk([]int{2, 2}, []float32{1, 1, 2, 2})}, vals: []string{"[4 5 3 4]"}},
		{name: "nd mul", c: sn(red("mul")), ins: []*tensor{m22, mk([]int{1, 2}, []int64{1, 1}), mk([]int{1}, []float32{3})}, vals: []string{"[1 2 3 12]"}},
		{name: "nd max elements", c: sn(red("max")), ins: []*tensor{m22, mk([]int{2, 2}, []int64{0, 0, 1, 1}), mk([]int{2}, []float32{5, 1})}, vals: []string{"[5 2 3 4]"}},
		{name: "nd min elements", c: sn(red("min")), ins: []*tensor{m22, mk([]int{2, 2}, []int64{0, 0, 1, 1}), mk([]int{2}, []float32{5, 1})}, vals: []string{"[1 2 3 1]"}},
		{name: "nd whole", c: sn(), ins: []*tensor{m22, mk([]int{0}, []int64{}), mk([]int{2, 2}, []float32{5, 6, 7, 8})}, vals: []string{"[5 6 7 8]"}},
		{name: "nd no updates", c: sn(), ins: []*tensor{m22, mk([]int{0, 1}, []int64{}), mk([]int{0, 2}, []float32{})}, vals: []string{"[1 2 3 4]"}},
		{name: "nd index out of range", c: sn(), ins: []*tensor{m22, mk([]int{1, 2}, []int64{0, 2}), mk([]int{1}, []float32{1})}, err: errs.ShapeMismatch},
		{name: "nd int32 indices refused", c: sn(), ins: []*tensor{m22, mk([]int{1, 2}, []int32{0, 1}), mk([]int{1}, []float32{1})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "elements", se(18, aInt("axis", 1), red("add")), mk([]int{3, 4}, make([]float32, 12)), mk([]int{3, 2}, []int32{0, 1, 2, 3, -1, -2}), mk([]int{3, 2}, make([]float32, 6)))
	dmNoAllocs(t, "nd", sn(), mk([]int{3, 4}, make([]float64, 12)), mk([]int{2, 1}, []int64{2, 0}), mk([]int{2, 4}, make([]float64, 8)))
}
