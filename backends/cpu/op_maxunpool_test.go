package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestMaxUnpool(t *testing.T) {
	mu := func(inputs ...string) nodeCase {
		return nodeCase{node: node("MaxUnpool", inputs, aInts("kernel_shape", 1, 2), aInts("strides", 1, 2)), opset: 11}
	}
	x := mk([]int{1, 1, 1, 2}, []float32{5, 6})
	ind := mk([]int{1, 1, 1, 2}, []int64{1, 3})
	i64out := mu("x", "i")
	i64out.outTypes = []payload.DType{payload.Int64}
	runKernelCases(t, []kernelCase{
		{name: "inferred", c: mu("x", "i"), ins: []*tensor{x, ind}, shape: []int{1, 1, 1, 4}, want: []float64{0, 5, 0, 6}},
		// A larger output_shape holds the unpooled 1×4 at its start.
		{name: "output_shape", c: mu("x", "i", "s"), ins: []*tensor{x, ind, i64s(1, 1, 2, 5)}, shape: []int{1, 1, 2, 5}, want: []float64{0, 5, 0, 6, 0, 0, 0, 0, 0, 0}},
		{name: "int64", c: i64out, ins: []*tensor{mk([]int{1, 1, 1, 2}, []int64{7, 8}), ind}, shape: []int{1, 1, 1, 4}, want: []float64{0, 7, 0, 8}},
		{name: "index out of range", c: mu("x", "i"), ins: []*tensor{x, mk([]int{1, 1, 1, 2}, []int64{1, 4})}, err: errs.ShapeMismatch},
		{name: "output_shape too small", c: mu("x", "i", "s"), ins: []*tensor{x, ind, i64s(1, 1, 1, 3)}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, mu("x", "i", "s"), x, ind, i64s(1, 1, 2, 5))
}
