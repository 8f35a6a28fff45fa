package cpu

import (
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestRMSNormalization(t *testing.T) {
	x := mk([]int{2, 2}, []float32{3, 4, 1, -1})
	rn := func(attrs ...any) nodeCase {
		n := node("RMSNormalization", []string{"x", "s"}, aFloat("epsilon", 0))
		for _, a := range attrs {
			n.Attrs = append(n.Attrs, aInt("axis", a.(int64)))
		}
		return nodeCase{node: n, opset: 23}
	}
	runKernelCases(t, []kernelCase{
		{name: "last axis", c: rn(), ins: []*tensor{x, mk([]int{2}, []float32{1, 2})}, shape: []int{2, 2},
			want: []float64{0.8485281, 2.2627417, 1, -2}},
		{name: "all axes scalar scale", c: rn(int64(0)), ins: []*tensor{x, mk([]int{1}, []float32{2})}, shape: []int{2, 2},
			want: []float64{2.3094011, 3.0792014, 0.7698004, -0.7698004}},
		{name: "float64", c: nodeCase{node: rn(int64(-1)).node, opset: 23, outTypes: []payload.DType{payload.Float64}}, ins: []*tensor{mk([]int{1, 2}, []float64{3, 4}), mk([]int{2}, []float64{1, 1})}, shape: []int{1, 2},
			want: []float64{0.8485281, 1.1313708}},
		{name: "scale size", c: rn(), ins: []*tensor{x, mk([]int{3}, []float32{1, 2, 3})}, err: errs.ShapeMismatch},
		{name: "scale type", c: rn(), ins: []*tensor{x, mk([]int{2}, []float64{1, 2})}, err: errs.Unsupported},
		{name: "float16", c: rn(), ins: []*tensor{mk([]int{2}, []float16.Float16{0, 0}), mk([]int{2}, []float16.Float16{0, 0})}, err: errs.Unsupported},
		{name: "axis", c: rn(int64(2)), ins: []*tensor{x, mk([]int{1}, []float32{2})}, err: errs.InvalidArtifact},
	})
	wantSteadyNoAllocs(t, nodeCase{node: node("RMSNormalization", []string{"x", "s"}), opset: 23},
		mk([]int{3, 8}, ewSeq(24, func(i int) float32 { return float32(i) })), mk([]int{8}, ewSeq(8, func(i int) float32 { return 1 })))
}
