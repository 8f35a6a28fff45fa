package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestFusedMatMul(t *testing.T) {
	a := func() *tensor { return mk([]int{2, 2}, []float32{1, 2, 3, 4}) }
	b := func() *tensor { return mk([]int{2, 2}, []float32{5, 6, 7, 8}) }
	fm := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: msNode("FusedMatMul", []string{"a", "b"}, attrs...)}
	}
	runKernelCases(t, []kernelCase{
		{name: "plain", c: fm(), ins: []*tensor{a(), b()}, shape: []int{2, 2}, want: []float64{19, 22, 43, 50}},
		{name: "alpha transB", c: fm(aFloat("alpha", 0.5), aInt("transB", 1)), ins: []*tensor{a(), b()}, shape: []int{2, 2}, want: []float64{8.5, 11.5, 19.5, 26.5}},
		{name: "transA", c: fm(aInt("transA", 1)), ins: []*tensor{a(), b()}, shape: []int{2, 2}, want: []float64{26, 30, 38, 44}},
		{name: "transA batch", c: fm(aInt("transA", 1)), ins: []*tensor{mk([]int{2, 2, 2}, []float32{1, 2, 3, 4, 1, 0, 0, 1}), b()}, shape: []int{2, 2, 2},
			want: []float64{26, 30, 38, 44, 5, 6, 7, 8}},
		{name: "const B transB", c: nodeCase{node: fm(aInt("transB", 1)).node, consts: []int{1}}, ins: []*tensor{a(), b()}, shape: []int{2, 2}, want: []float64{17, 23, 39, 53}},
		{name: "K mismatch", c: fm(aInt("transB", 1)), ins: []*tensor{a(), mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})}, err: errs.ShapeMismatch},
		{name: "transBatchA", c: fm(aInt("transBatchA", 1)), ins: []*tensor{a(), b()}, err: errs.Unsupported},
		{name: "int32", c: fm(), ins: []*tensor{mk([]int{1, 1}, []int32{1}), mk([]int{1, 1}, []int32{1})}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, fm(aInt("transA", 1), aInt("transB", 1)), mk([]int{2, 3, 4}, make([]float32, 24)), mk([]int{5, 3}, make([]float32, 15)))
}
