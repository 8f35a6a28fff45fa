package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestResizeRule(t *testing.T) {
	x := wx(1, 3, 5, 5)
	rs := func(ins []string, attrs ...Attr) *Node { return nd("Resize", ins, []string{"y"}, attrs...) }
	xs, xz := []string{"x", "", "s"}, []string{"x", "", "", "z"}
	runWinCases(t, []winCase{
		{name: "scales", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 1, 2, 1.5)}, want: [][]int{dims(1, 3, 10, 7)}},
		{name: "scales float32 product", opset: 13, node: rs(xs), in: []winIn{wx(1, 1, 3, 10), wabs(), wf(1, 1, float64(float32(1.0/3)), float64(float32(0.7)))}, want: [][]int{dims(1, 1, 1, 7)}},
		{name: "sizes", opset: 13, node: rs(xz), in: []winIn{x, wabs(), wabs(), wi(1, 3, 8, 9)}, want: [][]int{dims(1, 3, 8, 9)}},
		{name: "empty scales with sizes", opset: 11, node: rs([]string{"x", "r", "s", "z"}), in: []winIn{x, wf(), wf(), wi(1, 3, 8, 9)}, want: [][]int{dims(1, 3, 8, 9)}},
		{name: "sizes axes", opset: 18, node: rs(xz, aIs("axes", 2, -1)), in: []winIn{x, wabs(), wabs(), wi(8, 9)}, want: [][]int{dims(1, 3, 8, 9)}},
		{name: "axes ignored before 18", opset: 13, node: rs(xz, aIs("axes", 2, 3)), in: []winIn{x, wabs(), wabs(), wi(8, 9)}, err: errs.InvalidArtifact},
		{name: "not_larger", opset: 18, node: rs(xz, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_larger")), in: []winIn{wx(1, 3, 4, 8), wabs(), wabs(), wi(8, 8)}, want: [][]int{dims(1, 3, 4, 8)}},
		{name: "not_smaller", opset: 18, node: rs(xz, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_smaller")), in: []winIn{wx(1, 3, 4, 8), wabs(), wabs(), wi(8, 8)}, want: [][]int{dims(1, 3, 8, 16)}},
		{name: "not_smaller unknown dim", opset: 18, node: rs(xz, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_smaller")), in: []winIn{wx(1, 3, -1, 8), wabs(), wabs(), wi(8, 8)}, want: [][]int{dims(1, 3, -1, -1)}},
		{name: "bad policy", opset: 18, node: rs(xz, aS("keep_aspect_ratio_policy", "fill")), in: []winIn{x, wabs(), wabs(), wi(1, 3, 8, 9)}, err: errs.Unsupported},
		{name: "opset 10", opset: 10, node: rs([]string{"x", "s"}), in: []winIn{x, wf(1, 1, 2, 2)}, want: [][]int{dims(1, 3, 10, 10)}},
		{name: "opset 10 without scales", opset: 10, node: rs([]string{"x"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "opset 9", opset: 9, node: rs([]string{"x", "s"}), in: []winIn{x, wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "dynamic scales", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wx(4)}, want: [][]int{dims(-1, -1, -1, -1)}},
		{name: "dynamic sizes axes", opset: 18, node: rs(xz, aIs("axes", 3)), in: []winIn{x, wabs(), wabs(), {dt: i64, dims: []int{1}}}, want: [][]int{dims(1, 3, 5, -1)}},
		{name: "unknown dim", opset: 13, node: rs(xs), in: []winIn{wx(-1, 3, 5, 5), wabs(), wf(1, 1, 2, 2)}, want: [][]int{dims(-1, 3, 10, 10)}},
		{name: "unknown rank", opset: 13, node: rs(xs), in: []winIn{wu(), wabs(), wf(1, 1, 2, 2)}, want: [][]int{winUnr}},
		{name: "tf_crop_and_resize", opset: 13, node: rs([]string{"x", "r", "s"}, aS("coordinate_transformation_mode", "tf_crop_and_resize")), in: []winIn{x, wf(0, 0, 0, 0, 1, 1, 1, 1), wf(1, 1, 2, 2)}, want: [][]int{dims(1, 3, 10, 10)}},
		{name: "bad scale", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 1, 0, 1)}, err: errs.InvalidArtifact},
		{name: "bad scale at run time", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 1, -2, 1)}, runtime: true, err: errs.ShapeMismatch},
		{name: "scales count", opset: 13, node: rs(xs), in: []winIn{x, wabs(), wf(1, 2)}, runtime: true, err: errs.ShapeMismatch},
		{name: "both", opset: 13, node: rs([]string{"x", "", "s", "z"}), in: []winIn{x, wabs(), wf(1, 1, 2, 2), wi(1, 1, 4, 4)}, runtime: true, err: errs.ShapeMismatch},
		{name: "neither", opset: 13, node: rs([]string{"x"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "negative size", opset: 13, node: rs(xz), in: []winIn{x, wabs(), wabs(), wi(1, 3, -1, 4)}, err: errs.InvalidArtifact},
		{name: "size for an empty dim", opset: 13, node: rs(xz), in: []winIn{wx(1, 3, 0, 5), wabs(), wabs(), wi(1, 3, 2, 4)}, err: errs.InvalidArtifact},
		{name: "axes repeated", opset: 18, node: rs(xz, aIs("axes", 2, -2)), in: []winIn{x, wabs(), wabs(), wi(8, 9)}, err: errs.InvalidArtifact},
		{name: "bad coordinate mode", opset: 13, node: rs(xs, aS("coordinate_transformation_mode", "bogus")), in: []winIn{x, wabs(), wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "bad nearest mode", opset: 13, node: rs(xs, aS("nearest_mode", "bogus")), in: []winIn{x, wabs(), wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "bad mode", opset: 13, node: rs(xs, aS("mode", "area")), in: []winIn{x, wabs(), wf(1, 1, 2, 2)}, err: errs.Unsupported},
		{name: "upsample input", opset: 9, node: nd("Upsample", []string{"x", "s"}, []string{"y"}), in: []winIn{x, wf(1, 1, 2, 3)}, want: [][]int{dims(1, 3, 10, 15)}},
		{name: "upsample attribute", opset: 7, node: nd("Upsample", []string{"x"}, []string{"y"}, aFs("scales", 1, 1, 3, 3)), in: []winIn{x}, want: [][]int{dims(1, 3, 15, 15)}},
		{name: "upsample no scales attribute", opset: 8, node: nd("Upsample", []string{"x"}, []string{"y"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "upsample no scales input", opset: 9, node: nd("Upsample", []string{"x"}, []string{"y"}), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "upsample downscale", opset: 9, node: nd("Upsample", []string{"x", "s"}, []string{"y"}), in: []winIn{x, wf(1, 1, 0.5, 1)}, runtime: true, err: errs.ShapeMismatch},
		{name: "upsample cubic", opset: 9, node: nd("Upsample", []string{"x", "s"}, []string{"y"}, aS("mode", "cubic")), in: []winIn{x, wf(1, 1, 2, 2)}, err: errs.Unsupported},
	})
}
