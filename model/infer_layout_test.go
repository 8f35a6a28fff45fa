package model

import (
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestInferLayout(t *testing.T) {
	x := vin("x", f32, 2, 3, 4)
	dyn := vin("x", f32, -1, 3, 4)
	runInfer(t, []inferCase{
		{name: "reshape", in: []ValueInfo{x}, consts: []*Tensor{ints("s", 6, -1)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(6, 4)}}},
		{name: "reshape copy zero", in: []ValueInfo{x}, consts: []*Tensor{ints("s", 0, 0, -1, 2)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(2, 3, 2, 2)}}},
		{name: "reshape dynamic batch", in: []ValueInfo{dyn}, consts: []*Tensor{ints("s", 0, -1)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(-1, -1)}}},
		{name: "reshape dynamic infer", in: []ValueInfo{dyn}, consts: []*Tensor{ints("s", -1, 12)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(-1, 12)}}},
		{name: "reshape allowzero", opset: 14, in: []ValueInfo{vin("x", f32, 0, 3)}, consts: []*Tensor{ints("s", 3, 0)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}, aI("allowzero", 1)), want: []sh{{f32, d(3, 0)}}},
		{name: "reshape shape input", in: []ValueInfo{x, vin("s", i64, 3)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(-1, -1, -1)}}},
		{name: "reshape bad count", in: []ValueInfo{x}, consts: []*Tensor{ints("s", 5, 5)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), err: "reshape"},
		{name: "reshape two -1", in: []ValueInfo{x}, consts: []*Tensor{ints("s", -1, -1)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), err: "-1"},
		{name: "reshape indivisible", in: []ValueInfo{x}, consts: []*Tensor{ints("s", 5, -1)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), err: "reshape"},
		{name: "reshape float shape", in: []ValueInfo{x}, consts: []*Tensor{floats("s", 24)}, node: nd("Reshape", []string{"x", "s"}, []string{"y"}), err: "integers"},
		{name: "flatten", in: []ValueInfo{x}, node: nd("Flatten", []string{"x"}, []string{"y"}), want: []sh{{f32, d(2, 12)}}},
		{name: "flatten axis 0", in: []ValueInfo{x}, node: nd("Flatten", []string{"x"}, []string{"y"}, aI("axis", 0)), want: []sh{{f32, d(1, 24)}}},
		{name: "flatten negative", in: []ValueInfo{dyn}, node: nd("Flatten", []string{"x"}, []string{"y"}, aI("axis", -1)), want: []sh{{f32, d(-1, 4)}}},
		{name: "flatten bad axis", in: []ValueInfo{x}, node: nd("Flatten", []string{"x"}, []string{"y"}, aI("axis", 4)), err: "axis"},
		{name: "squeeze attr", opset: 11, in: []ValueInfo{vin("x", f32, 1, 3, 1)}, node: nd("Squeeze", []string{"x"}, []string{"y"}, aIs("axes", -1)), want: []sh{{f32, d(1, 3)}}},
		{name: "squeeze input", in: []ValueInfo{vin("x", f32, 1, 3, 1)}, consts: []*Tensor{ints("a", 0, 2)}, node: nd("Squeeze", []string{"x", "a"}, []string{"y"}), want: []sh{{f32, d(3)}}},
		{name: "squeeze all", in: []ValueInfo{vin("x", f32, 1, 3, 1)}, node: nd("Squeeze", []string{"x"}, []string{"y"}), want: []sh{{f32, d(3)}}},
		{name: "squeeze all unknown", in: []ValueInfo{vin("x", f32, 1, -1)}, node: nd("Squeeze", []string{"x"}, []string{"y"}), want: []sh{{f32, nil}}},
		{name: "squeeze not one", in: []ValueInfo{vin("x", f32, 2, 3)}, consts: []*Tensor{ints("a", 0)}, node: nd("Squeeze", []string{"x", "a"}, []string{"y"}), err: "squeeze"},
		{name: "unsqueeze attr", opset: 11, in: []ValueInfo{x}, node: nd("Unsqueeze", []string{"x"}, []string{"y"}, aIs("axes", 0, -1)), want: []sh{{f32, d(1, 2, 3, 4, 1)}}},
		{name: "unsqueeze input", in: []ValueInfo{x}, consts: []*Tensor{ints("a", 1)}, node: nd("Unsqueeze", []string{"x", "a"}, []string{"y"}), want: []sh{{f32, d(2, 1, 3, 4)}}},
		{name: "unsqueeze scalar", in: []ValueInfo{vin("x", i64)}, consts: []*Tensor{ints("a", 0)}, node: nd("Unsqueeze", []string{"x", "a"}, []string{"y"}), want: []sh{{i64, d(1)}}},
		{name: "unsqueeze dynamic axes", in: []ValueInfo{x, vin("a", i64, 2)}, node: nd("Unsqueeze", []string{"x", "a"}, []string{"y"}), want: []sh{{f32, d(-1, -1, -1, -1, -1)}}},
		{name: "unsqueeze dup", in: []ValueInfo{x}, consts: []*Tensor{ints("a", 1, 1)}, node: nd("Unsqueeze", []string{"x", "a"}, []string{"y"}), err: "repeated"},
		{name: "unsqueeze no axes opset 13", in: []ValueInfo{x}, node: nd("Unsqueeze", []string{"x"}, []string{"y"}), err: "axes"},
		{name: "transpose", in: []ValueInfo{x}, node: nd("Transpose", []string{"x"}, []string{"y"}, aIs("perm", 1, 2, 0)), want: []sh{{f32, d(3, 4, 2)}}},
		{name: "transpose default", in: []ValueInfo{x}, node: nd("Transpose", []string{"x"}, []string{"y"}), want: []sh{{f32, d(4, 3, 2)}}},
		{name: "transpose bad perm", in: []ValueInfo{x}, node: nd("Transpose", []string{"x"}, []string{"y"}, aIs("perm", 0, 0, 1)), err: "repeated"},
		{name: "transpose short perm", in: []ValueInfo{x}, node: nd("Transpose", []string{"x"}, []string{"y"}, aIs("perm", 1, 0)), err: "perm"},
		{name: "concat", in: []ValueInfo{x, vin("z", f32, 2, 5, 4)}, node: nd("Concat", []string{"x", "z"}, []string{"y"}, aI("axis", 1)), want: []sh{{f32, d(2, 8, 4)}}},
		{name: "concat dynamic", in: []ValueInfo{dyn, vin("z", f32, 2, 5, 4)}, node: nd("Concat", []string{"x", "z"}, []string{"y"}, aI("axis", -2)), want: []sh{{f32, d(2, 8, 4)}}},
		{name: "concat unknown part", in: []ValueInfo{vin("x", f32, 2, -1), vin("z", f32, 2, 5)}, node: nd("Concat", []string{"x", "z"}, []string{"y"}, aI("axis", 1)), want: []sh{{f32, d(2, -1)}}},
		{name: "concat mismatch", in: []ValueInfo{x, vin("z", f32, 3, 5, 4)}, node: nd("Concat", []string{"x", "z"}, []string{"y"}, aI("axis", 1)), err: "shape"},
		{name: "concat no axis", in: []ValueInfo{x}, node: nd("Concat", []string{"x"}, []string{"y"}), err: "axis"},
		{name: "split equal", in: []ValueInfo{vin("x", f32, 6, 2)}, node: nd("Split", []string{"x"}, []string{"a", "b", "c"}), want: []sh{{f32, d(2, 2)}, {f32, d(2, 2)}, {f32, d(2, 2)}}},
		{name: "split attr", opset: 11, in: []ValueInfo{vin("x", f32, 6, 2)}, node: nd("Split", []string{"x"}, []string{"a", "b"}, aIs("split", 4, 2)), want: []sh{{f32, d(4, 2)}, {f32, d(2, 2)}}},
		{name: "split input", in: []ValueInfo{vin("x", f32, 2, 6)}, consts: []*Tensor{ints("s", 1, 5)}, node: nd("Split", []string{"x", "s"}, []string{"a", "b"}, aI("axis", 1)), want: []sh{{f32, d(2, 1)}, {f32, d(2, 5)}}},
		{name: "split num_outputs uneven", opset: 18, in: []ValueInfo{vin("x", f32, 7)}, node: nd("Split", []string{"x"}, []string{"a", "b", "c"}, aI("num_outputs", 3)), want: []sh{{f32, d(3)}, {f32, d(3)}, {f32, d(1)}}},
		{name: "split bad sum", in: []ValueInfo{vin("x", f32, 6)}, consts: []*Tensor{ints("s", 1, 2)}, node: nd("Split", []string{"x", "s"}, []string{"a", "b"}), err: "split"},
		{name: "split uneven", in: []ValueInfo{vin("x", f32, 7)}, node: nd("Split", []string{"x"}, []string{"a", "b"}), err: "evenly"},
		{name: "slice", in: []ValueInfo{vin("x", f32, 10, 20)}, consts: []*Tensor{ints("s", 2, -5), ints("e", 8, 1<<62), ints("a", 0, 1)}, node: nd("Slice", []string{"x", "s", "e", "a"}, []string{"y"}), want: []sh{{f32, d(6, 5)}}},
		{name: "slice steps", in: []ValueInfo{vin("x", f32, 10, 20)}, consts: []*Tensor{ints("s", -1), ints("e", -1<<63), ints("a", 1), ints("st", -3)}, node: nd("Slice", []string{"x", "s", "e", "a", "st"}, []string{"y"}), want: []sh{{f32, d(10, 7)}}},
		{name: "slice step 2", in: []ValueInfo{vin("x", f32, 10)}, consts: []*Tensor{ints("s", 1), ints("e", 10), ints("st", 2)}, node: nd("Slice", []string{"x", "s", "e", "", "st"}, []string{"y"}), want: []sh{{f32, d(5)}}},
		{name: "slice empty", in: []ValueInfo{vin("x", f32, 10)}, consts: []*Tensor{ints("s", 5), ints("e", 2)}, node: nd("Slice", []string{"x", "s", "e"}, []string{"y"}), want: []sh{{f32, d(0)}}},
		{name: "slice attrs opset 9", opset: 9, in: []ValueInfo{vin("x", f32, 10, 20)}, node: nd("Slice", []string{"x"}, []string{"y"}, aIs("starts", 1), aIs("ends", 3), aIs("axes", 1)), want: []sh{{f32, d(10, 2)}}},
		{name: "slice dynamic ends", in: []ValueInfo{vin("x", f32, 10, 20), vin("e", i64, 1)}, consts: []*Tensor{ints("s", 0), ints("a", 1)}, node: nd("Slice", []string{"x", "s", "e", "a"}, []string{"y"}), want: []sh{{f32, d(10, -1)}}},
		{name: "slice dynamic dim", in: []ValueInfo{vin("x", f32, -1, 20)}, consts: []*Tensor{ints("s", 0), ints("e", 1)}, node: nd("Slice", []string{"x", "s", "e"}, []string{"y"}), want: []sh{{f32, d(-1, 20)}}},
		{name: "slice zero step", in: []ValueInfo{vin("x", f32, 10)}, consts: []*Tensor{ints("s", 0), ints("e", 1), ints("a", 0), ints("st", 0)}, node: nd("Slice", []string{"x", "s", "e", "a", "st"}, []string{"y"}), err: "step"},
		{name: "gather", in: []ValueInfo{x, vin("i", i64, 5, 6)}, node: nd("Gather", []string{"x", "i"}, []string{"y"}, aI("axis", 1)), want: []sh{{f32, d(2, 5, 6, 4)}}},
		{name: "gather scalar", in: []ValueInfo{vin("x", i64, 3), vin("i", i64)}, node: nd("Gather", []string{"x", "i"}, []string{"y"}), want: []sh{{i64, d()}}},
		{name: "gatherelements", in: []ValueInfo{x, vin("i", i64, 2, 3, 1)}, node: nd("GatherElements", []string{"x", "i"}, []string{"y"}, aI("axis", 2)), want: []sh{{f32, d(2, 3, 1)}}},
		{name: "expand", in: []ValueInfo{vin("x", f32, 3, 1)}, consts: []*Tensor{ints("s", 2, 1, 4)}, node: nd("Expand", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(2, 3, 4)}}},
		{name: "expand dynamic", in: []ValueInfo{vin("x", f32, 3, 1), vin("s", i64, 3)}, node: nd("Expand", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(-1, -1, -1)}}},
		{name: "expand bad", in: []ValueInfo{vin("x", f32, 3)}, consts: []*Tensor{ints("s", 4)}, node: nd("Expand", []string{"x", "s"}, []string{"y"}), err: "broadcast"},
		{name: "tile", in: []ValueInfo{vin("x", f32, 2, -1)}, consts: []*Tensor{ints("r", 3, 2)}, node: nd("Tile", []string{"x", "r"}, []string{"y"}), want: []sh{{f32, d(6, -1)}}},
		{name: "tile overflow", in: []ValueInfo{vin("x", f32, 1<<40)}, consts: []*Tensor{ints("r", 1<<40)}, node: nd("Tile", []string{"x", "r"}, []string{"y"}), err: "overflow"},
		{name: "pad", in: []ValueInfo{vin("x", f32, 1, 3, 4, 4)}, consts: []*Tensor{ints("p", 0, 0, 1, 2, 0, 0, 3, 4)}, node: nd("Pad", []string{"x", "p"}, []string{"y"}), want: []sh{{f32, d(1, 3, 8, 10)}}},
		{name: "pad axes", opset: 18, in: []ValueInfo{vin("x", f32, 1, 3, 4, 4)}, consts: []*Tensor{ints("p", 1, -1), ints("a", -1)}, node: nd("Pad", []string{"x", "p", "", "a"}, []string{"y"}), want: []sh{{f32, d(1, 3, 4, 4)}}},
		{name: "pad attr", opset: 2 + 8, in: []ValueInfo{vin("x", f32, 4)}, node: nd("Pad", []string{"x"}, []string{"y"}, aIs("pads", 1, 1)), want: []sh{{f32, d(6)}}},
		{name: "pad negative result", in: []ValueInfo{vin("x", f32, 4)}, consts: []*Tensor{ints("p", -3, -3)}, node: nd("Pad", []string{"x", "p"}, []string{"y"}), err: "padding"},
		{name: "pad dynamic", in: []ValueInfo{vin("x", f32, 4), vin("p", i64, 2)}, node: nd("Pad", []string{"x", "p"}, []string{"y"}), want: []sh{{f32, d(-1)}}},
		{name: "depthtospace", in: []ValueInfo{vin("x", f32, 1, 8, 2, 3)}, node: nd("DepthToSpace", []string{"x"}, []string{"y"}, aI("blocksize", 2)), want: []sh{{f32, d(1, 2, 4, 6)}}},
		{name: "spacetodepth", in: []ValueInfo{vin("x", f32, 1, 2, 4, 6)}, node: nd("SpaceToDepth", []string{"x"}, []string{"y"}, aI("blocksize", 2)), want: []sh{{f32, d(1, 8, 2, 3)}}},
		{name: "depthtospace indivisible", in: []ValueInfo{vin("x", f32, 1, 6, 2, 3)}, node: nd("DepthToSpace", []string{"x"}, []string{"y"}, aI("blocksize", 2)), err: "divisible"},
		{name: "resize scales", in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, consts: []*Tensor{floats("s", 1, 1, 2, 1.5)}, node: nd("Resize", []string{"x", "", "s"}, []string{"y"}), want: []sh{{f32, d(1, 3, 10, 7)}}},
		{name: "resize sizes", in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, consts: []*Tensor{ints("z", 1, 3, 8, 9)}, node: nd("Resize", []string{"x", "", "", "z"}, []string{"y"}), want: []sh{{f32, d(1, 3, 8, 9)}}},
		{name: "resize sizes axes", opset: 18, in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, consts: []*Tensor{ints("z", 8, 9)}, node: nd("Resize", []string{"x", "", "", "z"}, []string{"y"}, aIs("axes", 2, 3)), want: []sh{{f32, d(1, 3, 8, 9)}}},
		{name: "resize not_larger", opset: 18, in: []ValueInfo{vin("x", f32, 1, 3, 4, 8)}, consts: []*Tensor{ints("z", 8, 8)}, node: nd("Resize", []string{"x", "", "", "z"}, []string{"y"}, aIs("axes", 2, 3), aS("keep_aspect_ratio_policy", "not_larger")), want: []sh{{f32, d(1, 3, 4, 8)}}},
		{name: "resize opset 10", opset: 10, in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, consts: []*Tensor{floats("s", 1, 1, 2, 2)}, node: nd("Resize", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(1, 3, 10, 10)}}},
		{name: "resize dynamic", in: []ValueInfo{vin("x", f32, 1, 3, 5, 5), vin("s", f32, 4)}, node: nd("Resize", []string{"x", "", "s"}, []string{"y"}), want: []sh{{f32, d(-1, -1, -1, -1)}}},
		{name: "upsample", opset: 9, in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, consts: []*Tensor{floats("s", 1, 1, 2, 2)}, node: nd("Upsample", []string{"x", "s"}, []string{"y"}), want: []sh{{f32, d(1, 3, 10, 10)}}},
		{name: "upsample attr", opset: 7, in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, node: nd("Upsample", []string{"x"}, []string{"y"}, aFs("scales", 1, 1, 3, 3)), want: []sh{{f32, d(1, 3, 15, 15)}}},
		{name: "resize bad scale", in: []ValueInfo{vin("x", f32, 1, 3, 5, 5)}, consts: []*Tensor{floats("s", 1, 1, 0, 1)}, node: nd("Resize", []string{"x", "", "s"}, []string{"y"}), err: "scale"},
	})
}

func TestInferReduce(t *testing.T) {
	x := vin("x", f32, 2, 3, 4)
	runInfer(t, []inferCase{
		{name: "attr axes", opset: 13, in: []ValueInfo{x}, node: nd("ReduceMean", []string{"x"}, []string{"y"}, aIs("axes", 1)), want: []sh{{f32, d(2, 1, 4)}}},
		{name: "attr axes nokeep", opset: 13, in: []ValueInfo{x}, node: nd("ReduceMax", []string{"x"}, []string{"y"}, aIs("axes", -1, 0), aI("keepdims", 0)), want: []sh{{f32, d(3)}}},
		{name: "all", opset: 13, in: []ValueInfo{x}, node: nd("ReduceMin", []string{"x"}, []string{"y"}, aI("keepdims", 0)), want: []sh{{f32, d()}}},
		{name: "sum input axes", opset: 13, in: []ValueInfo{x}, consts: []*Tensor{ints("a", 2)}, node: nd("ReduceSum", []string{"x", "a"}, []string{"y"}), want: []sh{{f32, d(2, 3, 1)}}},
		{name: "sum attr before 13", opset: 11, in: []ValueInfo{x}, node: nd("ReduceSum", []string{"x"}, []string{"y"}, aIs("axes", 0)), want: []sh{{f32, d(1, 3, 4)}}},
		{name: "mean input axes 18", opset: 18, in: []ValueInfo{x}, consts: []*Tensor{ints("a", 0, 1)}, node: nd("ReduceMean", []string{"x", "a"}, []string{"y"}, aI("keepdims", 0)), want: []sh{{f32, d(4)}}},
		{name: "noop empty axes", opset: 18, in: []ValueInfo{x}, node: nd("ReduceL2", []string{"x"}, []string{"y"}, aI("noop_with_empty_axes", 1)), want: []sh{{f32, d(2, 3, 4)}}},
		{name: "dynamic axes keep", opset: 18, in: []ValueInfo{x, vin("a", i64, 1)}, node: nd("ReduceProd", []string{"x", "a"}, []string{"y"}), want: []sh{{f32, d(-1, -1, -1)}}},
		{name: "dynamic axes nokeep", opset: 18, in: []ValueInfo{x, vin("a", i64, 1)}, node: nd("ReduceProd", []string{"x", "a"}, []string{"y"}, aI("keepdims", 0)), want: []sh{{f32, nil}}},
		{name: "bad axis", opset: 13, in: []ValueInfo{x}, node: nd("ReduceMean", []string{"x"}, []string{"y"}, aIs("axes", 5)), err: "axis"},
	})
}

func TestInferLinear(t *testing.T) {
	runInfer(t, []inferCase{
		{name: "matmul", in: []ValueInfo{vin("a", f32, 2, 3), vin("b", f32, 3, 4)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(2, 4)}}},
		{name: "matmul batch", in: []ValueInfo{vin("a", f32, 5, 1, 2, 3), vin("b", f32, 7, 3, 4)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(5, 7, 2, 4)}}},
		{name: "matmul vec left", in: []ValueInfo{vin("a", f32, 3), vin("b", f32, 2, 3, 4)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(2, 4)}}},
		{name: "matmul vec right", in: []ValueInfo{vin("a", f32, 2, 3), vin("b", f32, 3)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(2)}}},
		{name: "matmul dot", in: []ValueInfo{vin("a", f32, 3), vin("b", f32, 3)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d()}}},
		{name: "matmul dynamic", in: []ValueInfo{vin("a", f32, -1, -1, 3), vin("b", f32, 3, 8)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), want: []sh{{f32, d(-1, -1, 8)}}},
		{name: "matmul mismatch", in: []ValueInfo{vin("a", f32, 2, 3), vin("b", f32, 4, 4)}, node: nd("MatMul", []string{"a", "b"}, []string{"y"}), err: "multiply"},
		{name: "gemm", in: []ValueInfo{vin("a", f32, 3, 2), vin("b", f32, 5, 3), vin("c", f32, 5)}, node: nd("Gemm", []string{"a", "b", "c"}, []string{"y"}, aI("transA", 1), aI("transB", 1)), want: []sh{{f32, d(2, 5)}}},
		{name: "gemm mismatch", in: []ValueInfo{vin("a", f32, 3, 2), vin("b", f32, 5, 3)}, node: nd("Gemm", []string{"a", "b"}, []string{"y"}), err: "inner"},
		{name: "gemm rank", in: []ValueInfo{vin("a", f32, 3), vin("b", f32, 3, 3)}, node: nd("Gemm", []string{"a", "b"}, []string{"y"}), err: "rank"},
	})
}

func TestInferConvPool(t *testing.T) {
	x := vin("x", f32, 1, 3, 32, 32)
	w := vin("w", f32, 16, 3, 3, 3)
	runInfer(t, []inferCase{
		{name: "conv", in: []ValueInfo{x, w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}), want: []sh{{f32, d(1, 16, 30, 30)}}},
		{name: "conv pads strides", in: []ValueInfo{x, w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aIs("pads", 1, 1, 1, 1), aIs("strides", 2, 2)), want: []sh{{f32, d(1, 16, 16, 16)}}},
		{name: "conv dilations", in: []ValueInfo{x, w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aIs("dilations", 2, 3)), want: []sh{{f32, d(1, 16, 28, 26)}}},
		{name: "conv same upper", in: []ValueInfo{x, w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aS("auto_pad", "SAME_UPPER"), aIs("strides", 3, 3)), want: []sh{{f32, d(1, 16, 11, 11)}}},
		{name: "conv valid", in: []ValueInfo{x, w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aS("auto_pad", "VALID"), aIs("strides", 2, 2)), want: []sh{{f32, d(1, 16, 15, 15)}}},
		{name: "conv group", in: []ValueInfo{vin("x", f32, 1, 8, 10, 10), vin("w", f32, 8, 2, 3, 3)}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aI("group", 4)), want: []sh{{f32, d(1, 8, 8, 8)}}},
		{name: "conv 1d dynamic", in: []ValueInfo{vin("x", f32, -1, 4, -1), vin("w", f32, 6, 4, 5)}, node: nd("Conv", []string{"x", "w"}, []string{"y"}), want: []sh{{f32, d(-1, 6, -1)}}},
		{name: "conv channels", in: []ValueInfo{vin("x", f32, 1, 4, 10, 10), w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}), err: "channels"},
		{name: "conv too small", in: []ValueInfo{vin("x", f32, 1, 3, 2, 2), w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}), err: "kernel"},
		{name: "conv bad pads len", in: []ValueInfo{x, w}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aIs("pads", 1, 1)), err: "pads"},
		{name: "convtranspose", in: []ValueInfo{vin("x", f32, 1, 16, 8, 8), vin("w", f32, 16, 4, 3, 3)}, node: nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, aIs("strides", 2, 2), aIs("pads", 1, 1, 1, 1), aIs("output_padding", 1, 1)), want: []sh{{f32, d(1, 4, 16, 16)}}},
		{name: "convtranspose group", in: []ValueInfo{vin("x", f32, 1, 16, 8, 8), vin("w", f32, 16, 4, 3, 3)}, node: nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, aI("group", 2)), want: []sh{{f32, d(1, 8, 10, 10)}}},
		{name: "convtranspose output_shape", in: []ValueInfo{vin("x", f32, 1, 16, 8, 8), vin("w", f32, 16, 4, 3, 3)}, node: nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, aIs("strides", 2, 2), aIs("output_shape", 15, 16)), want: []sh{{f32, d(1, 4, 15, 16)}}},
		{name: "convtranspose same", in: []ValueInfo{vin("x", f32, 1, 16, 8, 8), vin("w", f32, 16, 4, 3, 3)}, node: nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, aIs("strides", 2, 2), aS("auto_pad", "SAME_UPPER")), want: []sh{{f32, d(1, 4, 16, 16)}}},
		{name: "maxpool", in: []ValueInfo{x}, node: nd("MaxPool", []string{"x"}, []string{"y", "i"}, aIs("kernel_shape", 2, 2), aIs("strides", 2, 2)), want: []sh{{f32, d(1, 3, 16, 16)}, {i64, d(1, 3, 16, 16)}}},
		{name: "maxpool ceil", in: []ValueInfo{vin("x", f32, 1, 1, 5, 5)}, node: nd("MaxPool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 2, 2), aIs("strides", 2, 2), aI("ceil_mode", 1)), want: []sh{{f32, d(1, 1, 3, 3)}}},
		{name: "maxpool ceil drop last", in: []ValueInfo{vin("x", f32, 1, 1, 4)}, node: nd("MaxPool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 2), aIs("strides", 2), aIs("pads", 1, 1), aI("ceil_mode", 1)), want: []sh{{f32, d(1, 1, 3)}}},
		{name: "maxpool ceil window in padding", in: []ValueInfo{vin("x", f32, 1, 1, 5)}, node: nd("MaxPool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 2), aIs("strides", 2), aIs("pads", 1, 1), aI("ceil_mode", 1)), want: []sh{{f32, d(1, 1, 3)}}},
		{name: "averagepool same lower", in: []ValueInfo{vin("x", f32, 1, 1, 5, 5)}, node: nd("AveragePool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 3, 3), aIs("strides", 2, 2), aS("auto_pad", "SAME_LOWER")), want: []sh{{f32, d(1, 1, 3, 3)}}},
		{name: "maxpool dilation", in: []ValueInfo{vin("x", f32, 1, 1, 10)}, node: nd("MaxPool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 3), aIs("dilations", 2)), want: []sh{{f32, d(1, 1, 6)}}},
		{name: "lppool", in: []ValueInfo{vin("x", f32, 2, 3, 6, 6)}, node: nd("LpPool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 3, 3)), want: []sh{{f32, d(2, 3, 4, 4)}}},
		{name: "pool no kernel", in: []ValueInfo{x}, node: nd("MaxPool", []string{"x"}, []string{"y"}), err: "kernel_shape"},
		{name: "pool zero stride", in: []ValueInfo{x}, node: nd("AveragePool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 2, 2), aIs("strides", 0, 1)), err: "strides"},
		{name: "global", in: []ValueInfo{vin("x", f32, -1, 3, 7, 7)}, node: nd("GlobalAveragePool", []string{"x"}, []string{"y"}), want: []sh{{f32, d(-1, 3, 1, 1)}}},
		{name: "instancenorm", in: []ValueInfo{x, vin("s", f32, 3), vin("b", f32, 3)}, node: nd("InstanceNormalization", []string{"x", "s", "b"}, []string{"y"}), want: []sh{{f32, d(1, 3, 32, 32)}}},
	})
}

func TestInferMergesDeclared(t *testing.T) {
	// The file declares y as [N, 4] with N symbolic; inference knows
	// [-1, 4] from a dynamic input and refines nothing, keeps the name.
	g := graph(17, []ValueInfo{vin("x", f32, -1, 4)}, nil, nd("Relu", []string{"x"}, []string{"y"}), nd("Relu", []string{"y"}, []string{"z"}))
	g.Values["y"] = &ValueInfo{Name: "y", DType: f32, Shape: []int{-1, 4}, RankKnown: true, DimParams: []string{"N", ""}}
	g.Values["x"] = &ValueInfo{Name: "x", DType: f32, Shape: []int{-1, 4}, RankKnown: true}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	if v := g.Values["y"]; v.DimParams[0] != "N" || !sameDims(v.Shape, []int{-1, 4}) {
		t.Fatalf("y: %+v", v)
	}
	// A declared dim refines an unknown one, and flows on.
	g = graph(17, []ValueInfo{vin("x", f32, -1, 4)}, nil, nd("Relu", []string{"x"}, []string{"y"}), nd("Relu", []string{"y"}, []string{"z"}))
	g.Values["y"] = &ValueInfo{Name: "y", DType: f32, Shape: []int{8, -1}, RankKnown: true}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	if v := g.Values["z"]; !sameDims(v.Shape, []int{8, 4}) {
		t.Fatalf("z: %+v", v)
	}
	// A conflict is an error naming node and value.
	g = graph(17, []ValueInfo{vin("x", f32, 2, 4)}, nil, &Node{Name: "relu", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"y"}})
	g.Values["y"] = &ValueInfo{Name: "y", DType: f32, Shape: []int{3, 4}, RankKnown: true}
	err := InferTypes(g)
	wantKind(t, err, errs.InvalidArtifact)
	if s := err.Error(); !strings.Contains(s, `"relu"`) || !strings.Contains(s, `"y"`) {
		t.Fatal(err)
	}
	// So is a rank or element type conflict.
	g = graph(17, []ValueInfo{vin("x", f32, 2, 4)}, nil, nd("Relu", []string{"x"}, []string{"y"}))
	g.Values["y"] = &ValueInfo{Name: "y", DType: f32, Shape: []int{8}, RankKnown: true}
	wantKind(t, InferTypes(g), errs.InvalidArtifact)
	g = graph(17, []ValueInfo{vin("x", f32, 2, 4)}, nil, nd("Relu", []string{"x"}, []string{"y"}))
	g.Values["y"] = &ValueInfo{Name: "y", DType: payload.Int32}
	wantKind(t, InferTypes(g), errs.InvalidArtifact)
	// Unknown ops keep what the file declared.
	g = graph(17, []ValueInfo{vin("x", f32, 2, 4)}, nil, nd("Mystery", []string{"x"}, []string{"y"}), nd("Relu", []string{"y"}, []string{"z"}))
	g.Values["y"] = &ValueInfo{Name: "y", DType: f32, Shape: []int{5}, RankKnown: true}
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	if v := g.Values["z"]; v.DType != f32 || !sameDims(v.Shape, []int{5}) {
		t.Fatalf("z: %+v", v)
	}
	// Initializers are typed.
	g = graph(17, nil, []*Tensor{ints("c", 1, 2)}, nd("Neg", []string{"c"}, []string{"y"}))
	if err := InferTypes(g); err != nil {
		t.Fatal(err)
	}
	if v := g.Values["y"]; v.DType != i64 || !sameDims(v.Shape, []int{2}) {
		t.Fatalf("y: %+v", v)
	}
}

func TestInferMalformedAttrs(t *testing.T) {
	// Wrong attribute types and absurd values are errors, never panics.
	x := vin("x", f32, 1, 3, 8, 8)
	runInfer(t, []inferCase{
		{name: "axis as float", in: []ValueInfo{x}, node: nd("Flatten", []string{"x"}, []string{"y"}, aF("axis", 1)), err: "axis"},
		{name: "perm as int", in: []ValueInfo{x}, node: nd("Transpose", []string{"x"}, []string{"y"}, aI("perm", 1)), err: "perm"},
		{name: "huge unsqueeze", opset: 11, in: []ValueInfo{x}, node: nd("Unsqueeze", []string{"x"}, []string{"y"}, aIs("axes", make([]int64, 300)...)), err: "rank"},
		{name: "huge stride", in: []ValueInfo{x, vin("w", f32, 3, 4, 3, 3)}, node: nd("ConvTranspose", []string{"x", "w"}, []string{"y"}, aIs("strides", 1<<62, 1<<62)), err: "out of range"},
		{name: "huge kernel", in: []ValueInfo{x}, node: nd("MaxPool", []string{"x"}, []string{"y"}, aIs("kernel_shape", 1<<62, 1<<62), aIs("dilations", 1<<62, 4)), err: "overflow"},
		{name: "negative blocksize", in: []ValueInfo{x}, node: nd("DepthToSpace", []string{"x"}, []string{"y"}, aI("blocksize", -2)), err: "blocksize"},
		{name: "conv group zero", in: []ValueInfo{x, vin("w", f32, 4, 3, 3, 3)}, node: nd("Conv", []string{"x", "w"}, []string{"y"}, aI("group", 0)), err: "group"},
	})
}
