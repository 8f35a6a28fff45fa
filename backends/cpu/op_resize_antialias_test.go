package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestResizeAntialias(t *testing.T) {
	x := seqT(payload.Float32, []int{1, 1, 4, 4}) // 1…16
	none := (*tensor)(nil)
	rs := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("Resize", []string{"x", "", "s", "z"}, append([]model.Attr{aInt("antialias", 1)}, attrs...)...), opset: 19}
	}
	lin, cub := aString("mode", "linear"), aString("mode", "cubic")
	// Values of ONNX's reference: at scale 0.6 the triangle filter spans
	// four inputs; the first output, at input coordinate 1/3, weighs
	// inputs -1…2 (the first clamped) 0.125, 0.5, 0.375, 0.
	runKernelCases(t, []kernelCase{
		{name: "linear scales", c: rs(lin), ins: []*tensor{x, none, scalesT(1, 1, 0.6, 0.6), none}, shape: []int{1, 1, 2, 2}, want: []float64{2.875, 4.5, 9.375, 11}},
		{name: "linear sizes", c: rs(lin), ins: []*tensor{x, none, none, i64s(1, 1, 3, 3)}, shape: []int{1, 1, 3, 3},
			want: []float64{2.3636363, 3.590909, 4.818182, 7.2727275, 8.5, 9.727273, 12.181818, 13.409091, 14.636364}},
		{name: "cubic scales", c: rs(cub), ins: []*tensor{x, none, scalesT(1, 1, 0.6, 0.6), none}, shape: []int{1, 1, 2, 2}, want: []float64{2.5180721, 4.2858863, 9.589329, 11.357142}},
		{name: "cubic sizes", c: rs(cub), ins: []*tensor{x, none, none, i64s(1, 1, 3, 3)}, shape: []int{1, 1, 3, 3},
			want: []float64{1.7750092, 3.1200073, 4.4650054, 7.1550016, 8.5, 9.844998, 12.534994, 13.8799925, 15.224991}},
		// Upsampling and nearest mode are as without antialias.
		{name: "linear upsample", c: rs(lin, aString("coordinate_transformation_mode", "align_corners")), ins: []*tensor{mk([]int{1, 1, 1, 2}, []float32{1, 2}), none, none, i64s(1, 1, 1, 3)}, shape: []int{1, 1, 1, 3}, want: []float64{1, 1.5, 2}},
		{name: "nearest", c: rs(), ins: []*tensor{mk([]int{1, 1, 1, 4}, []float32{1, 2, 3, 4}), none, scalesT(1, 1, 1, 0.5), none}, shape: []int{1, 1, 1, 2}, want: []float64{1, 3}},
		{name: "tf_crop_and_resize", c: rs(lin, aString("coordinate_transformation_mode", "tf_crop_and_resize")), ins: []*tensor{x, mk([]int{8}, []float32{0, 0, 0, 0, 1, 1, 1, 1}), scalesT(1, 1, 0.5, 0.5), none}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, rs(cub), seqT(payload.Float32, []int{1, 2, 9, 9}), none, scalesT(1, 1, 0.4, 0.7), none)
}
