package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestConvRule(t *testing.T) {
	x, w := wx(1, 3, 32, 32), wx(16, 3, 3, 3)
	conv := func(attrs ...Attr) *Node { return nd("Conv", []string{"x", "w"}, []string{"y"}, attrs...) }
	convB := func(attrs ...Attr) *Node { return nd("Conv", []string{"x", "w", "b"}, []string{"y"}, attrs...) }
	runWinCases(t, []winCase{
		{name: "plain", node: conv(), in: []winIn{x, w}, want: [][]int{dims(1, 16, 30, 30)}, wantDT: []payload.DType{f32}},
		{name: "opset 1", opset: 1, node: conv(), in: []winIn{x, w}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "pads strides", node: conv(aIs("pads", 1, 1, 1, 1), aIs("strides", 2, 2)), in: []winIn{x, w}, want: [][]int{dims(1, 16, 16, 16)}},
		{name: "same lower", node: conv(aS("auto_pad", "SAME_LOWER"), aIs("strides", 3, 3)), in: []winIn{x, w}, want: [][]int{dims(1, 16, 11, 11)}},
		{name: "group", node: conv(aI("group", 4)), in: []winIn{wx(1, 8, 10, 10), wx(8, 2, 3, 3)}, want: [][]int{dims(1, 8, 8, 8)}},
		{name: "bias", node: convB(), in: []winIn{x, w, wx(16)}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "1-D dynamic", node: conv(), in: []winIn{wx(-1, 4, -1), wx(6, 4, 5)}, want: [][]int{dims(-1, 6, -1)}},
		{name: "3-D", node: conv(aIs("strides", 1, 2, 2)), in: []winIn{wx(2, 1, 5, 6, 7), wx(4, 1, 3, 3, 3)}, want: [][]int{dims(2, 4, 3, 2, 3)}},
		{name: "unknown input rank", node: conv(), in: []winIn{wu(), w}, want: [][]int{dims(-1, 16, -1, -1)}},
		{name: "unknown weight rank", node: conv(aIs("kernel_shape", 3, 3)), in: []winIn{x, wu()}, want: [][]int{dims(1, -1, 30, 30)}},
		{name: "unknown weight rank no kernel_shape", node: conv(), in: []winIn{x, wu()}, want: [][]int{dims(1, -1, -1, -1)}},
		{name: "unknown ranks", node: conv(), in: []winIn{wu(), wu()}, want: [][]int{winUnr}},
		{name: "unknown kernel dims", node: conv(aIs("kernel_shape", 3, 3)), in: []winIn{x, wx(16, 3, -1, -1)}, want: [][]int{dims(1, 16, 30, 30)}},
		{name: "channels", node: conv(), in: []winIn{wx(1, 4, 10, 10), w}, err: errs.InvalidArtifact},
		{name: "channels at run time", node: conv(), in: []winIn{wx(1, 4, 10, 10), w}, runtime: true, err: errs.ShapeMismatch},
		{name: "group channels", node: conv(aI("group", 3)), in: []winIn{wx(1, 3, 5, 5), wx(3, 2, 3, 3)}, err: errs.InvalidArtifact},
		{name: "outputs not divisible by group", node: conv(aI("group", 3)), in: []winIn{wx(1, 3, 5, 5), wx(4, 1, 3, 3)}, err: errs.InvalidArtifact},
		{name: "rank mismatch", node: conv(), in: []winIn{x, wx(16, 3, 3)}, err: errs.InvalidArtifact},
		{name: "rank 2", node: conv(), in: []winIn{wx(1, 3), wx(16, 3)}, err: errs.InvalidArtifact},
		{name: "kernel_shape mismatch", node: conv(aIs("kernel_shape", 2, 2)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "too small", node: conv(), in: []winIn{wx(1, 3, 2, 2), w}, err: errs.InvalidArtifact},
		{name: "bias length", node: convB(), in: []winIn{x, w, wx(3)}, runtime: true, err: errs.ShapeMismatch},
		{name: "missing weights", node: nd("Conv", []string{"x", ""}, []string{"y"}), in: []winIn{x, wabs()}, err: errs.InvalidArtifact},
	})
}

func TestConvTransposeRule(t *testing.T) {
	x, w := wx(1, 16, 8, 8), wx(16, 4, 3, 3)
	ct := func(attrs ...Attr) *Node { return nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, attrs...) }
	runWinCases(t, []winCase{
		{name: "plain", node: ct(), in: []winIn{x, w}, want: [][]int{dims(1, 4, 10, 10)}},
		{name: "strides pads output_padding", node: ct(aIs("strides", 2, 2), aIs("pads", 1, 1, 1, 1), aIs("output_padding", 1, 1)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 16, 16)}},
		{name: "group", node: ct(aI("group", 2)), in: []winIn{x, w}, want: [][]int{dims(1, 8, 10, 10)}},
		{name: "output_shape", node: ct(aIs("strides", 2, 2), aIs("output_shape", 15, 16)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 15, 16)}},
		{name: "output_shape with N and C", node: ct(aIs("output_shape", 1, 4, 12, 12)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 12, 12)}},
		{name: "same upper", node: ct(aIs("strides", 2, 2), aS("auto_pad", "SAME_UPPER")), in: []winIn{x, w}, want: [][]int{dims(1, 4, 16, 16)}},
		{name: "same beyond the full output", node: ct(aIs("strides", 4, 4), aS("auto_pad", "SAME_UPPER")), in: []winIn{x, wx(16, 4, 1, 1)}, want: [][]int{dims(1, 4, 29, 29)}},
		{name: "valid", node: ct(aS("auto_pad", "VALID"), aIs("strides", 2, 2)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 17, 17)}},
		{name: "dilations", node: ct(aIs("dilations", 2, 2)), in: []winIn{x, w}, want: [][]int{dims(1, 4, 12, 12)}},
		{name: "dynamic", node: ct(), in: []winIn{wx(-1, 16, -1, 8), w}, want: [][]int{dims(-1, 4, -1, 10)}},
		{name: "unknown input rank", node: ct(), in: []winIn{wu(), w}, want: [][]int{dims(-1, 4, -1, -1)}},
		{name: "channels", node: ct(), in: []winIn{wx(1, 3, 4, 4), wx(2, 2, 3, 3)}, err: errs.InvalidArtifact},
		{name: "group channels", node: ct(aI("group", 2)), in: []winIn{wx(1, 3, 4, 4), wx(3, 2, 3, 3)}, runtime: true, err: errs.ShapeMismatch},
		{name: "output_padding rank", node: ct(aIs("output_padding", 1)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "output_padding negative", node: ct(aIs("output_padding", -1, 0)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "output_shape rank", node: ct(aIs("output_shape", 3)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "negative size", node: ct(aIs("pads", 9, 0, 9, 0)), in: []winIn{x, w}, err: errs.InvalidArtifact},
		{name: "huge stride", node: ct(aIs("strides", 1<<62, 1<<62)), in: []winIn{x, w}, err: errs.InvalidArtifact},
	})
}
