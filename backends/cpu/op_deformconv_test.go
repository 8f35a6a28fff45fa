package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestDeformConv(t *testing.T) {
	x := mk([]int{1, 1, 3, 3}, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8})
	w := mk([]int{1, 1, 2, 2}, []float32{1, 1, 1, 1})
	dc := func(inputs []string, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("DeformConv", inputs, append([]model.Attr{aInts("kernel_shape", 2, 2)}, attrs...)...), opset: 19}
	}
	zero := mk([]int{1, 8, 2, 2}, make([]float32, 32))
	// The first tap of the first place moves down half an element: it
	// reads (0 + 3) / 2 instead of 0.
	shifted := mk([]int{1, 8, 2, 2}, make([]float32, 32))
	shifted.f32()[0] = 0.5
	half := mk([]int{1, 4, 2, 2}, []float32{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5})
	// Two channels, two offset groups: channel 1's taps move right by
	// one, reading zeros past the edge.
	x2 := mk([]int{1, 2, 2, 2}, []float32{1, 2, 3, 4, 1, 2, 3, 4})
	w2 := mk([]int{1, 2, 1, 1}, []float32{1, 10})
	off2 := mk([]int{1, 4, 2, 2}, []float32{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
	runKernelCases(t, []kernelCase{
		{name: "no offsets", c: dc([]string{"x", "w", "o"}), ins: []*tensor{x, w, zero}, shape: []int{1, 1, 2, 2}, want: []float64{8, 12, 20, 24}},
		{name: "offset", c: dc([]string{"x", "w", "o"}), ins: []*tensor{x, w, shifted}, shape: []int{1, 1, 2, 2}, want: []float64{9.5, 12, 20, 24}},
		{name: "bias and mask", c: dc([]string{"x", "w", "o", "b", "m"}), ins: []*tensor{x, w, zero, mk([]int{1}, []float32{1}), half}, shape: []int{1, 1, 2, 2}, want: []float64{5, 7, 11, 13}},
		{name: "padding", c: dc([]string{"x", "w", "o"}, aInts("pads", 1, 1, 1, 1)), ins: []*tensor{x, w, mk([]int{1, 8, 4, 4}, make([]float32, 128))}, shape: []int{1, 1, 4, 4},
			want: []float64{0, 1, 3, 2, 3, 8, 12, 7, 9, 20, 24, 13, 6, 13, 15, 8}},
		{name: "offset groups", c: nodeCase{node: node("DeformConv", []string{"x", "w", "o"}, aInts("kernel_shape", 1, 1), aInt("offset_group", 2)), opset: 19},
			ins: []*tensor{x2, w2, off2}, shape: []int{1, 1, 2, 2}, want: []float64{1 + 20, 2, 3 + 40, 4}},
		{name: "offset shape", c: dc([]string{"x", "w", "o"}), ins: []*tensor{x, w, mk([]int{1, 4, 2, 2}, make([]float32, 16))}, err: errs.ShapeMismatch},
		{name: "1-D", c: nodeCase{node: node("DeformConv", []string{"x", "w", "o"}), opset: 19}, ins: []*tensor{mk([]int{1, 1, 3}, []float32{1, 2, 3}), mk([]int{1, 1, 2}, []float32{1, 1}), mk([]int{1, 2, 2}, make([]float32, 4))}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, dc([]string{"x", "w", "o", "b", "m"}), x, w, shifted, mk([]int{1}, []float32{1}), half)
}
