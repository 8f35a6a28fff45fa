package model

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestPoolRule(t *testing.T) {
	x := wx(1, 3, 32, 32)
	pool := func(op string, attrs ...Attr) *Node { return nd(op, []string{"x"}, []string{"y"}, attrs...) }
	k2 := aIs("kernel_shape", 2, 2)
	runWinCases(t, []winCase{
		{name: "maxpool indices", node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, k2, aIs("strides", 2, 2)), in: []winIn{x}, want: [][]int{dims(1, 3, 16, 16), dims(1, 3, 16, 16)}, wantDT: []payload.DType{f32, i64}},
		{name: "maxpool indices opset 7", opset: 7, node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, k2), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "maxpool opset 1", opset: 1, node: pool("MaxPool", k2), in: []winIn{x}, want: [][]int{dims(1, 3, 31, 31)}},
		{name: "maxpool ceil", node: pool("MaxPool", k2, aIs("strides", 2, 2), aI("ceil_mode", 1)), in: []winIn{wx(1, 1, 5, 5)}, want: [][]int{dims(1, 1, 3, 3)}},
		{name: "maxpool ceil drop last", node: pool("MaxPool", aIs("kernel_shape", 2), aIs("strides", 2), aIs("pads", 1, 1), aI("ceil_mode", 1)), in: []winIn{wx(1, 1, 4)}, want: [][]int{dims(1, 1, 3)}},
		{name: "maxpool dilation", node: pool("MaxPool", aIs("kernel_shape", 3), aIs("dilations", 2)), in: []winIn{wx(1, 1, 10)}, want: [][]int{dims(1, 1, 6)}},
		{name: "maxpool storage_order", node: pool("MaxPool", k2, aI("storage_order", 1)), in: []winIn{x}, want: [][]int{dims(1, 3, 31, 31)}},
		{name: "maxpool bad storage_order", node: pool("MaxPool", k2, aI("storage_order", 2)), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "averagepool same lower", node: pool("AveragePool", aIs("kernel_shape", 3, 3), aIs("strides", 2, 2), aS("auto_pad", "SAME_LOWER")), in: []winIn{wx(1, 1, 5, 5)}, want: [][]int{dims(1, 1, 3, 3)}},
		{name: "averagepool count_include_pad", node: pool("AveragePool", k2, aI("count_include_pad", 1), aIs("pads", 1, 1, 1, 1)), in: []winIn{x}, want: [][]int{dims(1, 3, 33, 33)}},
		{name: "lppool", node: pool("LpPool", aIs("kernel_shape", 3, 3), aI("p", 3)), in: []winIn{wx(2, 3, 6, 6)}, want: [][]int{dims(2, 3, 4, 4)}},
		{name: "lppool float p opset 1", opset: 1, node: pool("LpPool", aIs("kernel_shape", 3, 3), aF("p", 2)), in: []winIn{wx(2, 3, 6, 6)}, want: [][]int{dims(2, 3, 4, 4)}},
		{name: "lppool p 0", node: pool("LpPool", k2, aI("p", 0)), in: []winIn{x}, err: errs.Unsupported},
		{name: "dynamic", node: pool("MaxPool", k2), in: []winIn{wx(-1, 3, -1, 8)}, want: [][]int{dims(-1, 3, -1, 7)}},
		{name: "unknown rank", node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, k2), in: []winIn{wu()}, want: [][]int{dims(-1, -1, -1, -1), dims(-1, -1, -1, -1)}},
		{name: "no kernel_shape", node: pool("MaxPool"), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "kernel rank", node: pool("MaxPool", aIs("kernel_shape", 2)), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "kernel too big", node: pool("AveragePool", aIs("kernel_shape", 5, 5)), in: []winIn{wx(1, 1, 4, 4)}, runtime: true, err: errs.ShapeMismatch},
		{name: "huge kernel", node: pool("MaxPool", aIs("kernel_shape", 1<<62, 1<<62), aIs("dilations", 1<<62, 4)), in: []winIn{x}, err: errs.InvalidArtifact},
		{name: "global average", node: pool("GlobalAveragePool"), in: []winIn{wx(-1, 3, 7, 7)}, want: [][]int{dims(-1, 3, 1, 1)}},
		{name: "global max 1-D", node: pool("GlobalMaxPool"), in: []winIn{wx(2, 3, 7)}, want: [][]int{dims(2, 3, 1)}},
		{name: "global lp", node: pool("GlobalLpPool", aI("p", 1)), in: []winIn{wx(2, 3, 7, 7, 7)}, want: [][]int{dims(2, 3, 1, 1, 1)}},
		{name: "global unknown rank", node: pool("GlobalMaxPool"), in: []winIn{wu()}, want: [][]int{winUnr}},
		{name: "global rank 1", node: pool("GlobalMaxPool"), in: []winIn{wx(4)}, runtime: true, err: errs.ShapeMismatch},
		{name: "global lp p 0", node: pool("GlobalLpPool", aI("p", 0)), in: []winIn{x}, err: errs.Unsupported},
	})
}
