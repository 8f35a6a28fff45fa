//go:build ort

package ortcheck

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
)

// graphCases chain several ops the way exported models do.
var graphCases = []tc{
	// The shape chain exporters emit for x.view(x.size(0), -1) with a free
	// batch dim.
	graph("Graph/shape_gather_unsqueeze_concat_reshape_13", 13, []onnxbuild.Node{
		nd("Shape", names("x"), names("s")),
		nd("Gather", names("s", "zero"), names("n"), ai("axis", 0)),
		nd("Unsqueeze", names("n", "axes0"), names("n1")),
		nd("Concat", names("n1", "rest"), names("target"), ai("axis", 0)),
		nd("Reshape", names("x", "target"), names("y0")),
	}, f32(3, 4, 5).d(-1, 4, 5).as("x"), i64s(0).as("zero"), i64(0).as("axes0"), i64(-1).as("rest")),
	graph("Graph/shape_chain_attr_axes_11", 11, []onnxbuild.Node{
		nd("Shape", names("x"), names("s")),
		nd("Gather", names("s", "zero"), names("n"), ai("axis", 0)),
		nd("Unsqueeze", names("n"), names("n1"), ais("axes", 0)),
		nd("Concat", names("n1", "rest"), names("target"), ai("axis", 0)),
		nd("Reshape", names("x", "target"), names("y0")),
	}, f32(2, 3, 4).d(-1, -1, 4).as("x"), i64s(0).as("zero"), i64(2, -1).as("rest")),

	// Conv → BatchNormalization → Relu, the block most vision models are
	// built of.
	graph("Graph/conv_bn_relu_13", 13, []onnxbuild.Node{
		nd("Conv", names("x", "w", "b"), names("c"), ais("pads", 1, 1, 1, 1)),
		nd("BatchNormalization", names("c", "scale", "bias", "mean", "var"), names("bn")),
		nd("Relu", names("bn"), names("y0")),
	}, f32(1, 3, 8, 8).as("x"), f32(6, 3, 3, 3).c().as("w"), f32(6).c().as("b"),
		f32(6).c().as("scale"), f32(6).c().as("bias"), f32(6).c().as("mean"), pos(6).c().as("var")),
	graph("Graph/conv_bn_hardswish_nobias_14", 14, []onnxbuild.Node{
		nd("Conv", names("x", "w"), names("c"), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1)),
		nd("BatchNormalization", names("c", "scale", "bias", "mean", "var"), names("bn"), af("epsilon", 1e-3)),
		nd("HardSwish", names("bn"), names("y0")),
	}, f32(2, 4, 9, 9).d(-1, 4, 9, 9).as("x"), f32(8, 4, 3, 3).c().as("w"),
		f32(8).c().as("scale"), f32(8).c().as("bias"), f32(8).c().as("mean"), pos(8).c().as("var")),

	// A small MLP.
	graph("Graph/mlp_13", 13, []onnxbuild.Node{
		nd("MatMul", names("x", "w1"), names("h")),
		nd("Add", names("h", "b1"), names("hb")),
		nd("Relu", names("hb"), names("a")),
		nd("Gemm", names("a", "w2", "b2"), names("logits"), ai("transB", 1)),
		nd("Softmax", names("logits"), names("y0")),
	}, f32(4, 16).d(-1, 16).as("x"), f32(16, 32).c().as("w1"), f32(32).c().as("b1"),
		f32(10, 32).c().as("w2"), f32(10).c().as("b2")),

	// Attention-like: softmax(q·kᵀ·scale)·v.
	graph("Graph/attention_13", 13, []onnxbuild.Node{
		nd("Transpose", names("k"), names("kt"), ais("perm", 0, 2, 1)),
		nd("MatMul", names("q", "kt"), names("s")),
		nd("Mul", names("s", "scale"), names("ss")),
		nd("Softmax", names("ss"), names("p"), ai("axis", -1)),
		nd("MatMul", names("p", "v"), names("y0")),
	}, f32(2, 5, 8).as("q"), f32(2, 6, 8).as("k"), f32(2, 6, 8).as("v"), fs(0.35355339).as("scale")),
	graph("Graph/attention_heads_13", 13, []onnxbuild.Node{
		nd("Reshape", names("x", "split_shape"), names("xs")),
		nd("Transpose", names("xs"), names("q"), ais("perm", 0, 2, 1, 3)),
		nd("Transpose", names("xs"), names("kt"), ais("perm", 0, 2, 3, 1)),
		nd("MatMul", names("q", "kt"), names("s")),
		nd("Div", names("s", "sqrt_d"), names("ss")),
		nd("Softmax", names("ss"), names("p")),
		nd("MatMul", names("p", "q"), names("o")),
		nd("Transpose", names("o"), names("ot"), ais("perm", 0, 2, 1, 3)),
		nd("Reshape", names("ot", "merge_shape"), names("y0")),
	}, f32(2, 7, 16).d(-1, 7, 16).as("x"), i64(0, 0, 4, 4).as("split_shape"), fs(2).as("sqrt_d"), i64(0, 0, -1).as("merge_shape")),

	// Two inputs (float32 and int64), two outputs (float32 and int64).
	graph("Graph/two_inputs_two_outputs_13", 13, []onnxbuild.Node{
		nd("Gather", names("table", "ids"), names("e")),
		nd("Add", names("e", "x"), names("y0")),
		nd("ArgMax", names("y0"), names("y1"), ai("axis", -1), ai("keepdims", 0)),
	}, f32(2, 3, 4).as("x"), ints(0, 9, 2, 3).as("ids"), f32(10, 4).c().as("table")).outs(F32, I64),

	// Optional typed by its type attribute: empty (no input) of a tensor
	// and of a sequence, and holding x.
	graph("Graph/optional_type_attribute_18", 18, []onnxbuild.Node{
		nd("Optional", nil, names("e"), onnxbuild.AType("type", onnxbuild.Value{DType: F32, Shape: []int64{2, 3}})),
		nd("OptionalHasElement", names("e"), names("y0")),
		nd("Optional", names("x"), names("o"), onnxbuild.AType("type", onnxbuild.Value{DType: F32, Shape: []int64{2, 3}})),
		nd("OptionalGetElement", names("o"), names("y1")),
		nd("Optional", nil, names("es"), onnxbuild.AType("type", onnxbuild.Value{DType: F32, Shape: []int64{5}, Kind: "tensor sequence"})),
		nd("OptionalHasElement", names("es"), names("y2")),
	}, f32(2, 3).as("x")).outs(B, F32, B),
}

func TestGraphs(t *testing.T) { runCases(t, graphCases) }

// seqMapBody adds its two inputs and squares the sum; it also gives the
// sum's shape.
var seqMapBody = onnxbuild.Graph{
	Name: "body",
	Inputs: []onnxbuild.Value{
		{Name: "a", DType: F32, NoShape: true},
		{Name: "b", DType: F32, NoShape: true},
	},
	Outputs: []onnxbuild.Value{
		{Name: "sq", DType: F32, NoShape: true},
		{Name: "shape", DType: I64, NoShape: true},
	},
	Nodes: []onnxbuild.Node{
		nd("Add", names("a", "b"), names("sum")),
		nd("Mul", names("sum", "sum"), names("sq")),
		nd("Shape", names("sum"), names("shape")),
	},
}

// sequenceCases run SequenceMap between SplitToSequence and
// ConcatFromSequence, so that the graph's inputs and outputs are tensors.
var sequenceCases = []tc{
	// One sequence and one tensor passed whole to every run of the body.
	graph("SequenceMap/sequence_and_tensor_17", 17, []onnxbuild.Node{
		nd("SplitToSequence", names("x"), names("s"), ai("axis", 0), ai("keepdims", 0)),
		nd("SequenceMap", names("s", "t"), names("m", "shapes"), onnxbuild.AGraph("body", seqMapBody)),
		nd("ConcatFromSequence", names("m"), names("y0"), ai("axis", 0), ai("new_axis", 1)),
		nd("ConcatFromSequence", names("shapes"), names("y1"), ai("axis", 0)),
	}, f32(5, 3).as("x"), f32(3).as("t")).outs(F32, I64),
	// Two sequences iterated in step, of elements of different lengths.
	graph("SequenceMap/two_sequences_17", 17, []onnxbuild.Node{
		nd("SplitToSequence", names("x", "split"), names("s"), ai("axis", 1)),
		nd("SplitToSequence", names("z", "split"), names("u"), ai("axis", 1)),
		nd("SequenceMap", names("s", "u"), names("m", "shapes"), onnxbuild.AGraph("body", seqMapBody)),
		nd("ConcatFromSequence", names("m"), names("y0"), ai("axis", 1)),
		nd("ConcatFromSequence", names("shapes"), names("y1"), ai("axis", 0)),
	}, f32(2, 7).as("x"), f32(2, 7).as("z"), i64(3, 1, 3).as("split")).outs(F32, I64),
}

func TestSequenceMap(t *testing.T) { runCases(t, sequenceCases) }
