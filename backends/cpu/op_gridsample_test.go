package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestGridSample(t *testing.T) {
	x := mk([]int{1, 1, 2, 2}, []float32{1, 2, 3, 4})
	// Grid points (x, y): the centre, the corners (-1,-1) and (1,-1),
	// and (2, 2), outside.
	grid := mk([]int{1, 1, 4, 2}, []float32{0, 0, -1, -1, 1, -1, 2, 2})
	gs := func(opset int64, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("GridSample", []string{"x", "g"}, attrs...), opset: opset}
	}
	ac := aInt("align_corners", 1)
	x3 := mk([]int{1, 1, 2, 2, 2}, []float32{0, 1, 2, 3, 4, 5, 6, 7})
	runKernelCases(t, []kernelCase{
		// align_corners: the corners are the corner elements; (2, 2) is
		// (1.5, 1.5), which only the last element's tap reaches.
		{name: "linear aligned zeros", c: gs(20, ac), ins: []*tensor{x, grid}, shape: []int{1, 1, 1, 4}, want: []float64{2.5, 1, 2, 1}},
		{name: "bilinear opset 16", c: gs(16, ac, aString("mode", "bilinear")), ins: []*tensor{x, grid}, shape: []int{1, 1, 1, 4}, want: []float64{2.5, 1, 2, 1}},
		{name: "border", c: gs(20, ac, aString("padding_mode", "border")), ins: []*tensor{x, grid}, shape: []int{1, 1, 1, 4}, want: []float64{2.5, 1, 2, 4}},
		// (1.5, 1.5) reflects at 1 to (0.5, 0.5).
		{name: "reflection", c: gs(20, ac, aString("padding_mode", "reflection")), ins: []*tensor{x, grid}, shape: []int{1, 1, 1, 4}, want: []float64{2.5, 1, 2, 2.5}},
		// Not aligned: the corners are the outer edges, (-1,-1) is
		// (-0.5,-0.5), a quarter of the first element.
		{name: "linear unaligned", c: gs(20), ins: []*tensor{x, grid}, shape: []int{1, 1, 1, 4}, want: []float64{2.5, 0.25, 0.5, 0}},
		// The centre (0.5, 0.5) rounds to even: element (0, 0); (1, -1)
		// is (1.5, -0.5), which rounds to (2, 0), outside.
		{name: "nearest", c: gs(20, aString("mode", "nearest")), ins: []*tensor{x, grid}, shape: []int{1, 1, 1, 4}, want: []float64{1, 1, 0, 0}},
		// Cubic at whole coordinates weighs the element alone.
		{name: "cubic corners", c: gs(20, ac, aString("mode", "cubic")), ins: []*tensor{x, mk([]int{1, 1, 2, 2}, []float32{-1, -1, 1, 1})}, shape: []int{1, 1, 1, 2}, want: []float64{1, 4}},
		{name: "float64", c: nodeCase{node: node("GridSample", []string{"x", "g"}, ac), opset: 22, outTypes: []payload.DType{payload.Float64}}, ins: []*tensor{mk([]int{1, 1, 2, 2}, []float64{1, 2, 3, 4}), mk([]int{1, 1, 1, 2}, []float64{0, 0})}, shape: []int{1, 1, 1, 1}, want: []float64{2.5}},
		// (x, y, z) = (1, -1, 1): w 1, h 0, d 1.
		{name: "volumetric", c: gs(20, ac), ins: []*tensor{x3, mk([]int{1, 1, 1, 1, 3}, []float32{1, -1, 1})}, shape: []int{1, 1, 1, 1, 1}, want: []float64{5}},
		{name: "volumetric at opset 16", c: gs(16), ins: []*tensor{x3, mk([]int{1, 1, 1, 1, 3}, []float32{1, -1, 1})}, err: errs.ShapeMismatch},
		{name: "grid type", c: gs(20), ins: []*tensor{x, mk([]int{1, 1, 1, 2}, []float64{0, 0})}, err: errs.Unsupported},
		{name: "int X", c: gs(20), ins: []*tensor{mk([]int{1, 1, 1, 1}, []int32{1}), mk([]int{1, 1, 1, 2}, []float32{0, 0})}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, gs(20, aString("mode", "cubic")), mk([]int{2, 3, 5, 5}, make([]float32, 150)), mk([]int{2, 4, 4, 2}, make([]float32, 64)))
}
