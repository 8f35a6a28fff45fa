package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func TestNonMaxSuppression(t *testing.T) {
	// Box 1 overlaps box 0 (IoU 0.9/1.1) and scores higher; box 2 is
	// apart.
	boxes := mk([]int{1, 3, 4}, []float32{0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 2, 1, 3})
	scores := mk([]int{1, 1, 3}, []float32{0.9, 0.95, 0.5})
	f := func(v float32) *tensor { return mk([]int{1}, []float32{v}) }
	nms := func(inputs []string, attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("NonMaxSuppression", inputs, attrs...), opset: 11, outTypes: []payload.DType{payload.Int64}}
	}
	all := []string{"b", "s", "m", "i", "t"}
	// The same boxes as centres and sizes.
	centres := mk([]int{1, 3, 4}, []float32{0.5, 0.5, 1, 1, 0.6, 0.5, 1, 1, 2.5, 0.5, 1, 1})
	runKernelCases(t, []kernelCase{
		{name: "suppress", c: nms(all), ins: []*tensor{boxes, scores, i64s(3), f(0.5), f(0)}, shape: []int{2, 3}, want: []float64{0, 0, 1, 0, 0, 2}},
		{name: "score threshold", c: nms(all), ins: []*tensor{boxes, scores, i64s(3), f(0.5), f(0.6)}, shape: []int{1, 3}, want: []float64{0, 0, 1}},
		{name: "high iou threshold", c: nms(all), ins: []*tensor{boxes, scores, i64s(3), f(0.95), f(0)}, shape: []int{3, 3}, want: []float64{0, 0, 1, 0, 0, 0, 0, 0, 2}},
		{name: "limit", c: nms(all[:3]), ins: []*tensor{boxes, scores, i64s(1)}, shape: []int{1, 3}, want: []float64{0, 0, 1}},
		{name: "center_point_box", c: nms(all, aInt("center_point_box", 1)), ins: []*tensor{centres, scores, i64s(3), f(0.5), f(0)}, shape: []int{2, 3}, want: []float64{0, 0, 1, 0, 0, 2}},
		{name: "no max_output_boxes_per_class", c: nms(all[:2]), ins: []*tensor{boxes, scores}, shape: []int{0, 3}, want: []float64{}},
		{name: "iou threshold out of range", c: nms(all), ins: []*tensor{boxes, scores, i64s(3), f(2), f(0)}, err: errs.ShapeMismatch},
		{name: "float64 boxes", c: nms(all[:2]), ins: []*tensor{mk([]int{1, 1, 4}, []float64{0, 0, 1, 1}), mk([]int{1, 1, 1}, []float64{1})}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, nms(all), boxes, scores, i64s(3), f(0.5), f(0))
}
