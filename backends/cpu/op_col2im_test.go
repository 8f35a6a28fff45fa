package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestCol2Im(t *testing.T) {
	c2i := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("Col2Im", []string{"x", "i", "b"}, attrs...), opset: 18}
	}
	strided := c2i(aInts("strides", 1, 2))
	padded := c2i(aInts("pads", 0, 1, 0, 1))
	runKernelCases(t, []kernelCase{
		// One place: the column is the image.
		{name: "one block", c: c2i(), ins: []*tensor{mk([]int{1, 4, 1}, []float32{1, 2, 3, 4}), i64s(2, 2), i64s(2, 2)}, shape: []int{1, 1, 2, 2}, want: []float64{1, 2, 3, 4}},
		// Two overlapping places of a 1×2 block over 1×3: the middle
		// element sums the second tap of place 0 and the first of place 1.
		{name: "overlap", c: c2i(), ins: []*tensor{mk([]int{1, 2, 2}, []float32{1, 2, 3, 4}), i64s(1, 3), i64s(1, 2)}, shape: []int{1, 1, 1, 3}, want: []float64{1, 5, 4}},
		// Stride 2 over 1×5: places at 0 and 2 overlap at 2.
		{name: "strides", c: strided, ins: []*tensor{mk([]int{1, 3, 2}, []float32{1, 2, 3, 4, 5, 6}), i64s(1, 5), i64s(1, 3)}, shape: []int{1, 1, 1, 5}, want: []float64{1, 3, 5 + 2, 4, 6}},
		// Padding 1 at each end of 1×2 with a 1×2 block: three places,
		// whose taps in the padding are dropped.
		{name: "pads", c: padded, ins: []*tensor{mk([]int{1, 2, 3}, []float32{1, 2, 3, 4, 5, 6}), i64s(1, 2), i64s(1, 2)}, shape: []int{1, 1, 1, 2}, want: []float64{4 + 2, 5 + 3}},
		{name: "two channels", c: c2i(), ins: []*tensor{mk([]int{1, 2, 1}, []float32{7, 8}), i64s(1, 1), i64s(1, 1)}, shape: []int{1, 2, 1, 1}, want: []float64{7, 8}},
		{name: "wrong place count", c: c2i(), ins: []*tensor{mk([]int{1, 2, 3}, []float32{1, 2, 3, 4, 5, 6}), i64s(1, 3), i64s(1, 2)}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, c2i(), mk([]int{2, 8, 9}, make([]float32, 144)), i64s(4, 4), i64s(2, 2))
}
