//go:build ort

package ortcheck

import "testing"

// fixedI64 is an int64 graph input fed fixed values.
func fixedI64(shape []int, vals ...int64) arg {
	return arg{dt: I64, shape: shape, fixed: bytesOf(vals)}
}

// dataMoveCases cover the scatter, gather, search and running-total ops.
var dataMoveCases = []tc{
	// CumSum: axis input, exclusive, reverse.
	c1("CumSum/axis0_14", 14, "CumSum", nil, f32(4, 3), i64s(0)),
	c1("CumSum/exclusive_reverse_14", 14, "CumSum", attrs(ai("exclusive", 1), ai("reverse", 1)), f32(2, 5, 3), i64s(1)),
	c1("CumSum/neg_axis_fed_11", 11, "CumSum", attrs(ai("exclusive", 1)), typed(I32, 3, 4), fixedI64([]int{}, -1)),
	c1("CumSum/float64_14", 14, "CumSum", attrs(ai("reverse", 1)), typed(F64, 6), i64s(0)),
	c1("CumSum/int64_14", 14, "CumSum", nil, typed(I64, 2, 6), i64s(1)),

	// ScatterElements, Scatter: distinct indices without a reduction,
	// repeated ones with.
	c1("ScatterElements/axis0_11", 11, "ScatterElements", nil, f32(3, 3), fixedI64([]int{2, 3}, 1, 0, 2, 0, 2, 1), f32(2, 3)),
	c1("ScatterElements/axis1_neg_13", 13, "ScatterElements", attrs(ai("axis", 1)), f32(2, 5), fixedI64([]int{2, 2}, -1, 0, 3, -5), f32(2, 2)),
	c1("ScatterElements/add_16", 16, "ScatterElements", attrs(ai("axis", 1), as("reduction", "add")), f32(2, 5), ints(-5, 4, 2, 6), f32(2, 6)),
	c1("ScatterElements/mul_18", 18, "ScatterElements", attrs(as("reduction", "mul")), f32(4, 2), ints(0, 3, 6, 2), f32(6, 2)),
	c1("ScatterElements/max_18", 18, "ScatterElements", attrs(ai("axis", -1), as("reduction", "max")), f32(3, 4), ints(0, 3, 3, 5), f32(3, 5)),
	c1("ScatterElements/min_int64_18", 18, "ScatterElements", attrs(as("reduction", "min")), typed(I64, 4), ints(0, 3, 8), typed(I64, 8)),
	c1("Scatter/axis1_9", 9, "Scatter", attrs(ai("axis", 1)), f32(2, 4), fixedI64([]int{2, 2}, 3, 1, 0, 2), f32(2, 2)),

	// ScatterND: element and slice updates, reductions.
	c1("ScatterND/slices_11", 11, "ScatterND", nil, f32(4, 3, 2), fixedI64([]int{2, 1}, 2, 0), f32(2, 3, 2)),
	c1("ScatterND/elements_13", 13, "ScatterND", nil, f32(3, 4), fixedI64([]int{3, 2}, 0, 0, 2, 3, -1, 1), f32(3)),
	c1("ScatterND/add_16", 16, "ScatterND", attrs(as("reduction", "add")), f32(4, 3), ints(-4, 3, 5, 1), f32(5, 3)),
	c1("ScatterND/mul_16", 16, "ScatterND", attrs(as("reduction", "mul")), f32(3, 3), ints(0, 2, 4, 2), f32(4)),
	c1("ScatterND/max_18", 18, "ScatterND", attrs(as("reduction", "max")), f32(3, 2), ints(0, 2, 4, 1), f32(4, 2)),
	c1("ScatterND/min_18", 18, "ScatterND", attrs(as("reduction", "min")), typed(I32, 2, 3), ints(0, 1, 3, 2), typed(I32, 3)),

	// GatherND: elements, slices, batch_dims.
	c1("GatherND/elements_11", 11, "GatherND", nil, f32(3, 4), ints(-3, 2, 5, 2)),
	c1("GatherND/slices_12", 12, "GatherND", nil, f32(4, 3, 2), ints(0, 3, 2, 2, 1)),
	c1("GatherND/batch_dims_13", 13, "GatherND", attrs(ai("batch_dims", 1)), typed(I32, 2, 3, 4), ints(0, 2, 2, 5, 2)),

	// TopK: K input, axis, smallest, several types.
	c1("TopK/last_axis_11", 11, "TopK", nil, f32(3, 7), i64(3)).outs(F32, I64),
	c1("TopK/axis0_smallest_11", 11, "TopK", attrs(ai("axis", 0), ai("largest", 0)), f32(6, 3), i64(4)).outs(F32, I64),
	c1("TopK/fed_k_10", 10, "TopK", attrs(ai("axis", 1)), f32(2, 5, 3), fixedI64([]int{1}, 2)).outs(F32, I64),
	c1("TopK/attr_k_9", 9, "TopK", attrs(ai("k", 2)), f32(3, 5)).outs(F32, I64),
	c1("TopK/int64_11", 11, "TopK", nil, typed(I64, 4, 9), i64(9)).outs(I64, I64),
	c1("TopK/ties_11", 11, "TopK", nil, arg{dt: I32, shape: []int{3, 12}, lo: 0, hi: 3}, i64(7)).outs(I32, I64),
	c1("TopK/ties_smallest_11", 11, "TopK", attrs(ai("largest", 0)), arg{dt: I32, shape: []int{3, 12}, lo: 0, hi: 3}, i64(7)).outs(I32, I64),
	c1("TopK/float64_smallest_11", 11, "TopK", attrs(ai("largest", 0)), typed(F64, 20), i64(5)).outs(F64, I64),

	// Unique: sorted and not, with an axis.
	c1("Unique/sorted_11", 11, "Unique", nil, ints(0, 4, 12)).outs(I64, I64, I64, I64),
	c1("Unique/unsorted_11", 11, "Unique", attrs(ai("sorted", 0)), ints(-3, 3, 4, 3)).outs(I64, I64, I64, I64),
	c1("Unique/axis0_11", 11, "Unique", attrs(ai("axis", 0)), ints(0, 1, 6, 2)).outs(I64, I64, I64, I64),
	c1("Unique/axis_neg_float_11", 11, "Unique", attrs(ai("axis", -1)), fc([]int{2, 4}, 1, 0, 1, 2, 3, 0, 3, 2).fed()).outs(F32, I64, I64, I64),

	// OneHot: axis, negative and out-of-range indices, float depth.
	c1("OneHot/default_11", 11, "OneHot", nil, ints(-6, 6, 4), fs(5), fc([]int{2}, 0, 1)).outs(F32),
	c1("OneHot/axis0_11", 11, "OneHot", attrs(ai("axis", 0)), ints(0, 3, 2, 3), i64s(4), fc([]int{2}, -1, 2)).outs(F32),
	c1("OneHot/neg_axis_9", 9, "OneHot", attrs(ai("axis", -2)), ints(0, 5, 2, 2), fs(6), fc([]int{2}, 3, 7)).outs(F32),

	// Compress: axis, flattened.
	c1("Compress/axis1_11", 11, "Compress", attrs(ai("axis", 1)), f32(3, 4), arg{dt: B, shape: []int{4}, lo: 0, hi: 1}),
	c1("Compress/flat_9", 9, "Compress", nil, f32(2, 3), arg{dt: B, shape: []int{5}, lo: 0, hi: 1}),

	// EyeLike: k, dtype.
	c1("EyeLike/same_type_9", 9, "EyeLike", nil, f32(3, 5)),
	c1("EyeLike/k_dtype_9", 9, "EyeLike", attrs(ai("k", -1), ai("dtype", int64(I64))), f32(4, 3)).outs(I64),

	// ReverseSequence: time and batch major.
	c1("ReverseSequence/time_major_10", 10, "ReverseSequence", nil, f32(4, 3, 2), fixedI64([]int{3}, 4, 1, 2)),
	c1("ReverseSequence/batch_major_10", 10, "ReverseSequence", attrs(ai("batch_axis", 0), ai("time_axis", 1)), f32(2, 5), fixedI64([]int{2}, 3, 5)),
}

func TestDataMove(t *testing.T) { runCases(t, dataMoveCases) }
