//go:build ort

package ortcheck

import "testing"

// typeCases cover the element types beyond float32 and the 32- and 64-bit
// integers: every integer width in the variadic, reduction, pooling and
// clipping ops, and float16 and bfloat16, which lintel computes through
// its float32 kernels.
var typeCases = []tc{
	c1("BitwiseAnd/int32_18", 18, "BitwiseAnd", nil, typed(I32, 3, 4), typed(I32, 4)),
	c1("BitwiseOr/uint8_18", 18, "BitwiseOr", nil, typed(U8, 2, 3, 4), typed(U8, 3, 1)),
	c1("BitwiseXor/int64_18", 18, "BitwiseXor", nil, typed(I64, 5), typed(I64, 5)),
	c1("BitwiseXor/uint16_18", 18, "BitwiseXor", nil, typed(U16, 2, 3), typed(U16, 2, 3)),
	c1("BitwiseNot/int16_18", 18, "BitwiseNot", nil, typed(I16, 3, 4)),
	c1("BitwiseNot/uint64_18", 18, "BitwiseNot", nil, typed(U64, 7)),

	c1("Max/int8_13", 13, "Max", nil, typed(I8, 3, 4), typed(I8, 4)),
	c1("Max/uint8_13", 13, "Max", nil, typed(U8, 3, 4), typed(U8, 3, 1)),
	// ONNX Runtime has no int16 or uint16 Min and Max.
	c1("Min/int8_13", 13, "Min", nil, typed(I8, 3, 4), typed(I8, 3, 4)),
	c1("Max/uint32_13", 13, "Max", nil, typed(U32, 2, 5), typed(U32, 5), typed(U32, 2, 1)),
	c1("Min/uint64_13", 13, "Min", nil, typed(U64, 6), typed(U64, 6)),
	c1("Max/float16_13", 13, "Max", nil, typed(F16, 3, 4), typed(F16, 4)),
	c1("Min/float16_13", 13, "Min", nil, typed(F16, 3, 4), typed(F16, 3, 4)),

	c1("ReduceMax/uint8_18", 18, "ReduceMax", attrs(ai("keepdims", 0)), typed(U8, 3, 4), i64(1)),
	c1("ReduceMin/int8_18", 18, "ReduceMin", nil, typed(I8, 3, 4), i64(0)),
	c1("ReduceMax/bool_20", 20, "ReduceMax", nil, typed(B, 3, 4), i64(1)),
	c1("ReduceMin/bool_20", 20, "ReduceMin", attrs(ai("keepdims", 0)), typed(B, 3, 4), i64(0)),
	c1("ReduceSum/float16_13", 13, "ReduceSum", nil, typed(F16, 3, 4), i64(1)),
	c1("ReduceMean/float16_18", 18, "ReduceMean", nil, typed(F16, 3, 8), i64(1)),

	c1("MaxPool/uint8_12", 12, "MaxPool", attrs(ais("kernel_shape", 2, 2)), typed(U8, 1, 2, 5, 5)),
	c1("MaxPool/int8_strided_12", 12, "MaxPool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), ais("pads", 1, 1, 1, 1)), typed(I8, 1, 2, 6, 6)),
	c1("MaxPool/float16_12", 12, "MaxPool", attrs(ais("kernel_shape", 2, 2)), typed(F16, 1, 2, 4, 4)),

	c1("Clip/uint8_13", 13, "Clip", nil, typed(U8, 9), arg{dt: U8, shape: []int{}, lo: 20, hi: 20}.c(), arg{dt: U8, shape: []int{}, lo: 150, hi: 150}.c()),
	c1("Clip/int8_13", 13, "Clip", nil, typed(I8, 9), arg{dt: I8, shape: []int{}, lo: -20, hi: -20}.c()),
	c1("Clip/uint32_13", 13, "Clip", nil, typed(U32, 9), none, arg{dt: U32, shape: []int{}, lo: 50, hi: 50}.c()),
	c1("Clip/uint64_13", 13, "Clip", nil, typed(U64, 9), arg{dt: U64, shape: []int{}, lo: 50, hi: 50}.c()),
	c1("Clip/float16_13", 13, "Clip", nil, typed(F16, 9), arg{dt: F16, shape: []int{}, lo: -1, hi: -1}.c(), arg{dt: F16, shape: []int{}, lo: 1, hi: 1}.c()),

	c1("Add/float16_14", 14, "Add", nil, typed(F16, 3, 4), typed(F16, 4)),
	c1("Mul/float16_14", 14, "Mul", nil, typed(F16, 3, 4), typed(F16, 3, 1)),
	c1("Sub/float16_14", 14, "Sub", nil, typed(F16, 3, 4), typed(F16, 3, 4)),
	c1("Div/float16_14", 14, "Div", nil, typed(F16, 3, 4), arg{dt: F16, shape: []int{4}, lo: 0.5, hi: 2, signed: true}),
	c1("Relu/float16_14", 14, "Relu", nil, typed(F16, 3, 4)),
	c1("Abs/uint8_13", 13, "Abs", nil, typed(U8, 7)),
	c1("Sign/uint32_13", 13, "Sign", nil, typed(U32, 7)),
	// ONNX Runtime has no Pow with unsigned exponents.
	c1("Pow/float16_int64_15", 15, "Pow", nil, arg{dt: F16, shape: []int{6}, lo: 0.5, hi: 2}, i64s(3)),
	c1("Less/float16_13", 13, "Less", nil, typed(F16, 3, 4), typed(F16, 4)).outs(B),
	c1("Softmax/float16_13", 13, "Softmax", nil, typed(F16, 3, 8)),
	c1("MatMul/uint32_13", 13, "MatMul", nil, arg{dt: U32, shape: []int{2, 3, 4}, lo: 0, hi: 50}, arg{dt: U32, shape: []int{4, 5}, lo: 0, hi: 50}),
	c1("MatMul/uint64_13", 13, "MatMul", nil, arg{dt: U64, shape: []int{3, 4}, lo: 0, hi: 50}, arg{dt: U64, shape: []int{4}, lo: 0, hi: 50}),
	c1("MatMul/float16_13", 13, "MatMul", nil, typed(F16, 3, 8), typed(F16, 8, 5)),
	c1("Gemm/float16_13", 13, "Gemm", attrs(ai("transB", 1)), typed(F16, 3, 8), typed(F16, 5, 8).c(), typed(F16, 5)),
	c1("Conv/float16_11", 11, "Conv", attrs(ais("pads", 1, 1, 1, 1)), typed(F16, 1, 2, 5, 5), typed(F16, 3, 2, 3, 3).c()),
}

func TestElemTypes(t *testing.T) { runCases(t, typeCases) }
