package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestRoiAlign(t *testing.T) {
	x := mk([]int{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	roi := mk([]int{1, 4}, []float32{0, 0, 1, 1})
	bi := i64s(0)
	ra := func(opset int64, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("RoiAlign", []string{"x", "r", "b"}, append([]model.Attr{aInt("sampling_ratio", 1)}, attrs...)...), opset: opset}
	}
	ohp := aString("coordinate_transformation_mode", "output_half_pixel")
	runKernelCases(t, []kernelCase{
		// One sample at the bin's centre, (0.5, 0.5): the mean.
		{name: "output_half_pixel", c: ra(16, ohp), ins: []*tensor{x, roi, bi}, shape: []int{1, 1, 1, 1}, want: []float64{2.5}},
		{name: "opset 10 default", c: ra(10), ins: []*tensor{x, roi, bi}, shape: []int{1, 1, 1, 1}, want: []float64{2.5}},
		// half_pixel shifts the region by half an element: the sample
		// lands on (0, 0).
		{name: "half_pixel", c: ra(16), ins: []*tensor{x, roi, bi}, shape: []int{1, 1, 1, 1}, want: []float64{1}},
		// Max takes the largest weighted corner: 0.25 * 4.
		{name: "max", c: ra(16, ohp, aString("mode", "max")), ins: []*tensor{x, roi, bi}, shape: []int{1, 1, 1, 1}, want: []float64{1}},
		// Two bins across, each sampled at its centre: (0.25, 0.5) and
		// (0.75, 0.5).
		{name: "bins", c: ra(16, ohp, aInt("output_width", 2)), ins: []*tensor{x, roi, bi}, shape: []int{1, 1, 1, 2}, want: []float64{2.25, 2.75}},
		{name: "batch index", c: ra(16), ins: []*tensor{x, roi, i64s(1)}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, ra(16, aInt("output_height", 3), aInt("output_width", 3), aInt("sampling_ratio", 0)),
		mk([]int{1, 2, 6, 6}, make([]float32, 72)), mk([]int{2, 4}, []float32{0, 0, 5, 5, 1, 1, 3, 4}), i64s(0, 0))
}
