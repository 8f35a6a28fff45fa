package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestAffineGrid(t *testing.T) {
	ag := nodeCase{node: node("AffineGrid", []string{"t", "s"}), opset: 20}
	al := nodeCase{node: node("AffineGrid", []string{"t", "s"}, aInt("align_corners", 1)), opset: 20}
	id := mk([]int{1, 2, 3}, []float32{1, 0, 0, 0, 1, 0})
	// x' = x + 0.25, y' = 2y.
	tr := mk([]int{1, 2, 3}, []float32{1, 0, 0.25, 0, 2, 0})
	id3 := mk([]int{1, 3, 4}, []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0})
	runKernelCases(t, []kernelCase{
		{name: "identity", c: ag, ins: []*tensor{id, i64s(1, 1, 2, 2)}, shape: []int{1, 2, 2, 2}, want: []float64{-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5}},
		{name: "aligned", c: al, ins: []*tensor{id, i64s(1, 1, 2, 2)}, shape: []int{1, 2, 2, 2}, want: []float64{-1, -1, 1, -1, -1, 1, 1, 1}},
		{name: "affine", c: ag, ins: []*tensor{tr, i64s(1, 3, 1, 2)}, shape: []int{1, 1, 2, 2}, want: []float64{-0.25, 0, 0.75, 0}},
		{name: "3-D", c: al, ins: []*tensor{id3, i64s(1, 1, 2, 1, 1)}, shape: []int{1, 2, 1, 1, 3}, want: []float64{-1, -1, -1, -1, -1, 1}},
		{name: "batch", c: ag, ins: []*tensor{id, i64s(2, 1, 2, 2)}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, ag, mk([]int{2, 2, 3}, make([]float32, 12)), i64s(2, 3, 8, 8))
}
