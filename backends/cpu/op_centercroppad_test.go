package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestCenterCropPad(t *testing.T) {
	x := mk([]int{5}, []float32{1, 2, 3, 4, 5})
	ccp := nodeCase{node: node("CenterCropPad", []string{"x", "s"}), opset: 18}
	x23 := mk([]int{2, 3}, []int32{1, 2, 3, 4, 5, 6})
	axis1 := nodeCase{node: node("CenterCropPad", []string{"x", "s"}, aInts("axes", -1)), opset: 18, outTypes: []payload.DType{payload.Int32}}
	runKernelCases(t, []kernelCase{
		{name: "crop", c: ccp, ins: []*tensor{x, i64s(3)}, shape: []int{3}, want: []float64{2, 3, 4}},
		// An odd difference leaves the extra element at the end.
		{name: "crop odd", c: ccp, ins: []*tensor{x, i64s(2)}, shape: []int{2}, want: []float64{2, 3}},
		{name: "pad", c: ccp, ins: []*tensor{x, i64s(8)}, shape: []int{8}, want: []float64{0, 1, 2, 3, 4, 5, 0, 0}},
		{name: "int32 axis", c: axis1, ins: []*tensor{x23, mk([]int{1}, []int32{5})}, shape: []int{2, 5}, want: []float64{0, 1, 2, 3, 0, 0, 4, 5, 6, 0}},
		{name: "crop and pad", c: nodeCase{node: ccp.node, opset: 18, outTypes: axis1.outTypes}, ins: []*tensor{x23, i64s(3, 1)}, shape: []int{3, 1}, want: []float64{2, 5, 0}},
		{name: "wrong count", c: ccp, ins: []*tensor{x23, i64s(3)}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, ccp, mk([]int{4, 6}, make([]float32, 24)), i64s(6, 3))
}
