//go:build ort

package ortcheck

import (
	"math"
	"strconv"
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// castCases covers Cast between many element type pairs; ranges keep
// float-to-integer casts inside the target's range.
var castCases = func() []tc {
	type pair struct {
		from, to payload.DType
		lo, hi   float64
	}
	pairs := []pair{
		{F32, F16, -70000, 70000}, {F32, F16, -2, 2}, {F32, BF16, -1e5, 1e5}, {F16, F32, -2, 2}, {BF16, F32, -2, 2},
		{F32, F64, -2, 2}, {F64, F32, -1e3, 1e3}, {F32, I8, -120, 120}, {F32, U8, 0, 250}, {F32, I32, -1e6, 1e6},
		{F32, I64, -1e6, 1e6}, {I64, F32, -1e6, 1e6}, {I32, F32, -1e6, 1e6}, {I8, F32, -100, 100}, {U8, F32, 0, 250},
		{F32, B, -1, 1}, {B, F32, 0, 1}, {I64, B, -2, 2}, {B, I64, 0, 1}, {I64, I32, -1e6, 1e6}, {I32, I64, -1e6, 1e6},
		{U8, I64, 0, 250}, {I8, I32, -100, 100}, {F16, I64, -100, 100}, {I64, F16, -1000, 1000}, {F16, BF16, -2, 2},
		{BF16, F16, -2, 2}, {U8, B, 0, 3}, {B, U8, 0, 1}, {I32, I8, -100, 100}, {F64, I64, -1e6, 1e6}, {I64, F64, -1e6, 1e6},
	}
	var out []tc
	for i, p := range pairs {
		opset := []int64{7, 13, 19, 21}[i%4]
		if opset < 13 && (p.from == BF16 || p.to == BF16) {
			opset = 13
		}
		name := "Cast/" + p.from.String() + "_to_" + p.to.String() + "_" + strconv.Itoa(int(opset))
		if p.from == F32 && p.to == F16 && p.lo == -2 {
			name = "Cast/float32_to_float16_small_13"
			opset = 13
		}
		in := arg{dt: p.from, shape: []int{3, 5}, lo: p.lo, hi: p.hi}
		out = append(out, c1(name, opset, "Cast", attrs(ai("to", int64(p.to))), in).outs(p.to))
	}
	return out
}()

// shapeCases cover the ops that move, reshape, select and create data.
var shapeCases = []tc{
	// Flatten.
	c1("Flatten/default_9", 9, "Flatten", nil, f32(2, 3, 4)),
	c1("Flatten/axis0_11", 11, "Flatten", attrs(ai("axis", 0)), f32(2, 3, 4)),
	c1("Flatten/axis2_13", 13, "Flatten", attrs(ai("axis", 2)), f32(2, 3, 4)),
	c1("Flatten/axis_neg1_13", 13, "Flatten", attrs(ai("axis", -1)), f32(2, 3, 4)),
	c1("Flatten/axis3_21", 21, "Flatten", attrs(ai("axis", 3)), f32(2, 3, 4)),
	c1("Flatten/free_batch_13", 13, "Flatten", nil, f32(3, 2, 5).d(-1, 2, 5)),

	// Reshape: 0 copies a dim, -1 infers one, allowzero (opset 14) makes 0
	// literal.
	c1("Reshape/plain_7", 7, "Reshape", nil, f32(2, 3, 4), i64(4, 6)),
	c1("Reshape/minus1_13", 13, "Reshape", nil, f32(2, 3, 4), i64(2, -1)),
	c1("Reshape/zero_copies_13", 13, "Reshape", nil, f32(2, 3, 4), i64(0, 12)),
	c1("Reshape/zero_and_minus1_14", 14, "Reshape", nil, f32(2, 3, 4), i64(0, -1, 2)),
	c1("Reshape/allowzero_nonzero_14", 14, "Reshape", attrs(ai("allowzero", 1)), f32(2, 3, 4), i64(3, 8)),
	c1("Reshape/allowzero_empty_14", 14, "Reshape", attrs(ai("allowzero", 1)), f32(0, 3), i64(3, 0)),
	c1("Reshape/fed_shape_13", 13, "Reshape", nil, f32(2, 3, 4), i64(6, -1).fed()),
	c1("Reshape/free_batch_13", 13, "Reshape", nil, f32(3, 2, 4).d(-1, 2, 4), i64(0, -1)),
	c1("Reshape/int64_21", 21, "Reshape", nil, typed(I64, 2, 6), i64(3, 4)),
	c1("Reshape/to_scalar_13", 13, "Reshape", nil, f32(1, 1), i64()),

	// Squeeze and Unsqueeze: axes attribute before opset 13, input after.
	c1("Squeeze/all_11", 11, "Squeeze", nil, f32(1, 3, 1, 4)),
	c1("Squeeze/axes_attr_11", 11, "Squeeze", attrs(ais("axes", 2)), f32(1, 3, 1, 4)),
	c1("Squeeze/neg_axes_attr_7", 7, "Squeeze", attrs(ais("axes", -4, -2)), f32(1, 3, 1, 4)),
	c1("Squeeze/axes_input_13", 13, "Squeeze", nil, f32(1, 3, 1, 4), i64(0)),
	c1("Squeeze/neg_axes_input_13", 13, "Squeeze", nil, f32(1, 3, 1, 4), i64(-2, 0)),
	c1("Squeeze/no_axes_13", 13, "Squeeze", nil, f32(1, 3, 1, 4)),
	c1("Squeeze/to_scalar_21", 21, "Squeeze", nil, f32(1, 1), i64(0, 1)),
	c1("Unsqueeze/attr_11", 11, "Unsqueeze", attrs(ais("axes", 0)), f32(3, 4)),
	c1("Unsqueeze/attr_multi_7", 7, "Unsqueeze", attrs(ais("axes", 3, 0)), f32(3, 4)),
	c1("Unsqueeze/attr_neg_11", 11, "Unsqueeze", attrs(ais("axes", -1)), f32(3, 4)),
	c1("Unsqueeze/input_13", 13, "Unsqueeze", nil, f32(3, 4), i64(1)),
	c1("Unsqueeze/input_multi_neg_13", 13, "Unsqueeze", nil, f32(3, 4), i64(-1, 0)),
	c1("Unsqueeze/scalar_13", 13, "Unsqueeze", nil, f32(), i64(0)),
	c1("Unsqueeze/int64_21", 21, "Unsqueeze", nil, typed(I64, 2, 3), i64(2)),

	// Transpose.
	c1("Transpose/default_7", 7, "Transpose", nil, f32(2, 3, 4)),
	c1("Transpose/2D_13", 13, "Transpose", attrs(ais("perm", 1, 0)), f32(5, 7)),
	c1("Transpose/0213_13", 13, "Transpose", attrs(ais("perm", 0, 2, 1, 3)), f32(2, 3, 4, 5)),
	c1("Transpose/nchw_to_nhwc_13", 13, "Transpose", attrs(ais("perm", 0, 2, 3, 1)), f32(2, 3, 4, 5)),
	c1("Transpose/rank5_21", 21, "Transpose", attrs(ais("perm", 4, 1, 3, 0, 2)), f32(2, 1, 3, 2, 2)),
	c1("Transpose/int64_13", 13, "Transpose", attrs(ais("perm", 1, 0)), typed(I64, 3, 4)),

	// Concat.
	c1("Concat/axis0_11", 11, "Concat", attrs(ai("axis", 0)), f32(2, 3), f32(4, 3)),
	c1("Concat/axis1_13", 13, "Concat", attrs(ai("axis", 1)), f32(2, 3, 4), f32(2, 1, 4), f32(2, 2, 4)),
	c1("Concat/neg_axis_13", 13, "Concat", attrs(ai("axis", -1)), f32(2, 3), f32(2, 5)),
	c1("Concat/int64_13", 13, "Concat", attrs(ai("axis", 0)), typed(I64, 2), i64(7, 8, 9)),
	c1("Concat/one_input_7", 7, "Concat", attrs(ai("axis", 0)), f32(3, 2)),
	c1("Concat/with_const_13", 13, "Concat", attrs(ai("axis", 1)), f32(2, 3), f32(2, 2).c()),

	// Split: split attribute (opset 11), input (13), num_outputs (18).
	c1("Split/equal_11", 11, "Split", attrs(ai("axis", 1)), f32(2, 6)).outs(F32, F32, F32),
	c1("Split/attr_11", 11, "Split", attrs(ai("axis", 0), ais("split", 2, 4)), f32(6, 3)).outs(F32, F32),
	c1("Split/attr_neg_axis_7", 7, "Split", attrs(ai("axis", -1), ais("split", 1, 3, 2)), f32(2, 6)).outs(F32, F32, F32),
	c1("Split/input_13", 13, "Split", attrs(ai("axis", 1)), f32(2, 7), i64(3, 4)).outs(F32, F32),
	c1("Split/equal_13", 13, "Split", nil, f32(4, 3)).outs(F32, F32),
	c1("Split/num_outputs_18", 18, "Split", attrs(ai("axis", 1), ai("num_outputs", 3)), f32(2, 6)).outs(F32, F32, F32),
	c1("Split/num_outputs_uneven_18", 18, "Split", attrs(ai("axis", -1), ai("num_outputs", 3)), f32(2, 7)).outs(F32, F32, F32),
	c1("Split/int64_13", 13, "Split", nil, typed(I64, 4), i64(1, 3)).outs(I64, I64),

	// Slice: attributes at opset 9, inputs from 10; negative steps,
	// clamping, omitted axes and steps.
	c1("Slice/attrs_9", 9, "Slice", attrs(ais("starts", 1, 0), ais("ends", 3, 2), ais("axes", 0, 1)), f32(4, 5)),
	c1("Slice/attrs_no_axes_9", 9, "Slice", attrs(ais("starts", 1), ais("ends", 1000)), f32(4, 5)),
	c1("Slice/attrs_neg_7", 7, "Slice", attrs(ais("starts", -3), ais("ends", -1), ais("axes", -1)), f32(4, 5)),
	c1("Slice/inputs_10", 10, "Slice", nil, f32(4, 5), i64(1), i64(3), i64(1)),
	c1("Slice/no_axes_13", 13, "Slice", nil, f32(4, 5), i64(0, 1), i64(2, 4)),
	c1("Slice/steps2_13", 13, "Slice", nil, f32(6, 7), i64(0, 1), i64(6, 7), i64(0, 1), i64(2, 3)),
	c1("Slice/reverse_13", 13, "Slice", nil, f32(4, 5), i64(-1), i64(math.MinInt64), i64(1), i64(-1)),
	c1("Slice/neg_step2_11", 11, "Slice", nil, f32(4, 9), i64(7), i64(0), i64(-1), i64(-2)),
	c1("Slice/clamp_ends_13", 13, "Slice", nil, f32(4, 5), i64(-100, 2), i64(100, math.MaxInt64), i64(0, 1)),
	c1("Slice/empty_13", 13, "Slice", nil, f32(4, 5), i64(3), i64(1), i64(0)),
	c1("Slice/neg_axes_13", 13, "Slice", nil, f32(2, 3, 4), i64(1), i64(-1), i64(-1)),
	c1("Slice/fed_13", 13, "Slice", nil, f32(4, 5), i64(1).fed(), i64(4).fed(), i64(0).fed(), i64(2).fed()),
	c1("Slice/int64_13", 13, "Slice", nil, typed(I64, 6), i64(-2), i64(math.MaxInt64)),

	// Gather: axis, negative indices, scalar and 2-D indices.
	c1("Gather/axis0_13", 13, "Gather", nil, f32(5, 3), ints(0, 4, 4)),
	c1("Gather/axis1_11", 11, "Gather", attrs(ai("axis", 1)), f32(2, 5, 3), ints(0, 4, 2, 3)),
	c1("Gather/neg_axis_13", 13, "Gather", attrs(ai("axis", -1)), f32(2, 3, 6), ints(0, 5, 4)),
	c1("Gather/neg_indices_13", 13, "Gather", nil, f32(5, 3), ints(-5, 4, 6)),
	c1("Gather/scalar_index_13", 13, "Gather", nil, f32(5, 3), i64s(-2)),
	c1("Gather/scalar_index_axis1_7", 7, "Gather", attrs(ai("axis", 1)), f32(2, 5), i64s(3)),
	c1("Gather/int32_indices_13", 13, "Gather", nil, f32(6, 2), arg{dt: I32, shape: []int{3}, lo: -6, hi: 5}),
	c1("Gather/int64_data_13", 13, "Gather", nil, typed(I64, 6), ints(-6, 5, 2, 2)),
	c1("Gather/embedding_13", 13, "Gather", nil, f32(50, 8).c(), ints(0, 49, 2, 5)).outs(F32),

	// Expand.
	c1("Expand/middle_8", 8, "Expand", nil, f32(2, 1, 3), i64(2, 4, 3)),
	c1("Expand/fewer_dims_13", 13, "Expand", nil, f32(3, 1), i64(4)),
	c1("Expand/ones_13", 13, "Expand", nil, f32(3, 4), i64(1, 1)),
	c1("Expand/more_dims_13", 13, "Expand", nil, f32(3), i64(2, 1, 3)),
	c1("Expand/fed_shape_13", 13, "Expand", nil, f32(1, 4), i64(3, 4).fed()),
	c1("Expand/int64_13", 13, "Expand", nil, typed(I64, 1), i64(5)),

	// Identity, Dropout (inference: a copy; the mask is all true).
	c1("Identity/13", 13, "Identity", nil, f32(3, 4)),
	c1("Identity/int64_21", 21, "Identity", nil, typed(I64, 3)),
	c1("Identity/bool_7", 7, "Identity", nil, typed(B, 4)),
	c1("Dropout/ratio_attr_7", 7, "Dropout", attrs(af("ratio", 0.3)), f32(3, 4)),
	c1("Dropout/mask_10", 10, "Dropout", nil, f32(3, 4)).outs(F32, B),
	c1("Dropout/ratio_input_12", 12, "Dropout", nil, f32(3, 4), fs(0.25)),
	c1("Dropout/mask_13", 13, "Dropout", nil, f32(3, 4), fs(0.1)).outs(F32, B),

	// ConstantOfShape.
	c1("ConstantOfShape/default_9", 9, "ConstantOfShape", nil, i64(2, 3).fed()).outs(F32),
	c1("ConstantOfShape/float_20", 20, "ConstantOfShape", attrs(onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{1}, []float32{2.5}))), i64(3, 1, 2).fed()).outs(F32),
	c1("ConstantOfShape/int64_13", 13, "ConstantOfShape", attrs(onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{1}, []int64{-7}))), i64(4).fed()).outs(I64),
	c1("ConstantOfShape/empty_shape_13", 13, "ConstantOfShape", attrs(onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{1}, []float32{1}))), i64().fed()).outs(F32),

	// Shape (start/end from opset 15) and Size.
	c1("Shape/13", 13, "Shape", nil, f32(2, 3, 4)).outs(I64),
	c1("Shape/start_15", 15, "Shape", attrs(ai("start", 1)), f32(2, 3, 4)).outs(I64),
	c1("Shape/end_neg_15", 15, "Shape", attrs(ai("end", -1)), f32(2, 3, 4)).outs(I64),
	c1("Shape/start_end_21", 21, "Shape", attrs(ai("start", -2), ai("end", 3)), f32(2, 3, 4, 5)).outs(I64),
	c1("Shape/clamped_15", 15, "Shape", attrs(ai("start", -10), ai("end", 10)), f32(2, 3)).outs(I64),
	c1("Shape/scalar_7", 7, "Shape", nil, f32()).outs(I64),
	c1("Size/13", 13, "Size", nil, f32(2, 3, 4)).outs(I64),
	c1("Size/7", 7, "Size", nil, typed(I64, 5)).outs(I64),
	c1("Size/21", 21, "Size", nil, f32(3, 4).d(-1, 4)).outs(I64),

	// Pad: attributes (opset 2 semantics, up to 10), inputs from 11;
	// constant, reflect and edge; negative pads crop.
	c1("Pad/attr_constant_7", 7, "Pad", attrs(ais("pads", 0, 1, 1, 2), af("value", 1.5)), f32(3, 4)),
	c1("Pad/attr_reflect_7", 7, "Pad", attrs(ais("pads", 1, 2, 2, 1), as("mode", "reflect")), f32(3, 4)),
	c1("Pad/attr_edge_10", 10, "Pad", attrs(ais("pads", 0, 0, 1, 2, 0, 0, 2, 1), as("mode", "edge")), f32(1, 2, 3, 4)),
	c1("Pad/constant_11", 11, "Pad", nil, f32(3, 4), i64(1, 0, 2, 3), fs(-1)),
	c1("Pad/constant_default_13", 13, "Pad", nil, f32(1, 2, 3, 4), i64(0, 0, 1, 1, 0, 0, 1, 1)),
	c1("Pad/reflect_13", 13, "Pad", attrs(as("mode", "reflect")), f32(1, 2, 4, 5), i64(0, 0, 2, 1, 0, 0, 1, 3)),
	c1("Pad/edge_11", 11, "Pad", attrs(as("mode", "edge")), f32(3, 4), i64(2, 1, 1, 2)),
	c1("Pad/negative_13", 13, "Pad", nil, f32(4, 5), i64(-1, 1, 0, -2)),
	c1("Pad/fed_pads_13", 13, "Pad", nil, f32(3, 4), i64(1, 1, 1, 1).fed()),
	c1("Pad/int64_13", 13, "Pad", nil, typed(I64, 2, 3), i64(0, 1, 0, 1), arg{dt: I64, shape: []int{}, lo: 9, hi: 9}.c()),
	c1("Pad/axes_18", 18, "Pad", attrs(as("mode", "reflect")), f32(2, 3, 4), i64(1, 2), none, i64(-1)),
	c1("Pad/constant_21", 21, "Pad", nil, f32(2, 3), i64(1, 1, 0, 0), fs(3)),
}

// constantCases feed a Constant's value through an op with a graph
// input, since a model needs at least one input to be fed.
var constantCases = []tc{
	graph("Constant/value_tensor_13", 13, []onnxbuild.Node{
		nd("Constant", nil, names("k"), onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{2, 3}, []float32{1, -2, 3, -4, 5, -6}))),
		nd("Add", names("x", "k"), names("y0")),
	}, f32(2, 3).as("x")),
	graph("Constant/value_float_13", 13, []onnxbuild.Node{
		nd("Constant", nil, names("k"), af("value_float", 0.25)),
		nd("Mul", names("x", "k"), names("y0")),
	}, f32(2, 3).as("x")),
	graph("Constant/value_floats_12", 12, []onnxbuild.Node{
		nd("Constant", nil, names("k"), afs("value_floats", 1, 2, 3)),
		nd("Sub", names("x", "k"), names("y0")),
	}, f32(2, 3).as("x")),
	graph("Constant/value_ints_13", 13, []onnxbuild.Node{
		nd("Constant", nil, names("k"), ais("value_ints", 3, 4)),
		nd("Reshape", names("x", "k"), names("y0")),
	}, f32(2, 6).as("x")),
	graph("Constant/value_int_21", 21, []onnxbuild.Node{
		nd("Constant", nil, names("k"), ai("value_int", 2)),
		nd("Add", names("x", "k"), names("y0")),
	}, typed(I64, 4).as("x")),
	graph("Constant/tensor_9", 9, []onnxbuild.Node{
		nd("Constant", nil, names("k"), onnxbuild.ATensor("value", onnxbuild.TensorOf("", []int64{3}, []int64{0, 2, 1}))),
		nd("Gather", names("x", "k"), names("y0"), ai("axis", 1)),
	}, f32(2, 3).as("x")),
}

func TestShape(t *testing.T)    { runCases(t, shapeCases) }
func TestCast(t *testing.T)     { runCases(t, castCases) }
func TestConstant(t *testing.T) { runCases(t, constantCases) }
