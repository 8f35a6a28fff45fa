//go:build ort

package ortcheck

import (
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
	"github.com/lintel-ml/lintel/payload"
)

// zpc is a zero point or scale initializer of element type dt and the
// given shape (nil: a scalar) holding vals, which must match dt.
func zpc[E payload.Elem](dt payload.DType, shape []int, vals ...E) arg {
	if shape == nil {
		shape = []int{}
	}
	return arg{dt: dt, shape: shape, fixed: bytesOf(vals), init: true}
}

// u8z, i8z are uint8 and int8 zero points.
func u8z(shape []int, v ...uint8) arg { return zpc(U8, shape, v...) }
func i8z(shape []int, v ...int8) arg  { return zpc(I8, shape, v...) }

// qdq quantizes x to the type of zero point z and dequantizes it back, so
// that a type the bindings cannot return (float 8, 4-bit) comes back as
// float32. Both nodes get the attributes at, QuantizeLinear also sat.
func qdq(name string, opset int64, at, sat []onnxbuild.Attr, x, s, z arg) tc {
	return graph(name, opset, []onnxbuild.Node{
		nd("QuantizeLinear", names("x", "s", "z"), names("q"), append(sat, at...)...),
		nd("DequantizeLinear", names("q", "s", "z"), names("y0"), at...),
	}, x.as("x"), s.as("s"), z.as("z")).outs(F32)
}

// quantCases cover the quantization ops: QuantizeLinear and
// DequantizeLinear per tensor, per axis and blocked, over every type
// ONNX Runtime quantizes to, DynamicQuantizeLinear, and the integer and
// quantized MatMul and Conv.
var quantCases = []tc{
	c1("QuantizeLinear/uint8_10", 10, "QuantizeLinear", nil, rng(-300, 300, 3, 4), fs(2), u8z(nil, 128)).outs(U8),
	c1("QuantizeLinear/no_zero_point_13", 13, "QuantizeLinear", nil, rng(-10, 300, 3, 4), fs(0.7)).outs(U8),
	c1("QuantizeLinear/ties_13", 13, "QuantizeLinear", nil, fc([]int{8}, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 254.5, -128.5).fed(), fs(1), i8z(nil, 0)).outs(I8),
	c1("QuantizeLinear/int8_per_axis_13", 13, "QuantizeLinear", nil, rng(-3, 3, 2, 3, 4), fc([]int{3}, 0.01, 0.02, 0.05), i8z([]int{3}, -3, 0, 7)).outs(I8),
	c1("QuantizeLinear/per_axis_last_13", 13, "QuantizeLinear", attrs(ai("axis", -1)), rng(-3, 3, 3, 4), fc([]int{4}, 0.01, 0.02, 0.05, 0.1), u8z([]int{4}, 0, 100, 128, 255)).outs(U8),
	c1("QuantizeLinear/blocked_21", 21, "QuantizeLinear", attrs(ai("axis", 1), ai("block_size", 2)), rng(-3, 3, 3, 5), pos(3, 3).c(), i8z([]int{3, 3}, 0, 1, -1, 2, -2, 3, 0, 0, 5)).outs(I8),
	c1("QuantizeLinear/blocked_axis0_21", 21, "QuantizeLinear", attrs(ai("axis", 0), ai("block_size", 3)), rng(-300, 300, 4, 2), pos(2, 2).c(), u8z([]int{2, 2}, 0, 50, 128, 200)).outs(U8),
	c1("QuantizeLinear/int16_21", 21, "QuantizeLinear", nil, rng(-70000, 70000, 12), fs(1.5), zpc(I16, nil, int16(-7))).outs(I16),
	c1("QuantizeLinear/uint16_21", 21, "QuantizeLinear", nil, rng(-1000, 140000, 12), fs(2), zpc(U16, nil, uint16(30000))).outs(U16),
	c1("QuantizeLinear/output_dtype_21", 21, "QuantizeLinear", attrs(ai("output_dtype", int64(I8))), rng(-300, 300, 9), fs(2)).outs(I8),
	// No row quantizes float16 x: ONNX Runtime 1.24 truncates x / scale
	// toward zero there (ParQuantizeLinearStd for MLFloat16), where the
	// spec and its float32 path round half to even, as lintel does.
	qdq("QuantizeLinear/float8e4m3fn_19", 19, nil, nil, rng(-1000, 1000, 12), fs(0.5), zpc(payload.F8E4M3FN, []int{1}, payload.Float8E4M3FN(0))),
	qdq("QuantizeLinear/float8e4m3fn_nosat_19", 19, nil, attrs(ai("saturate", 0)), rng(-100, 100, 12), fs(0.5), zpc(payload.F8E4M3FN, []int{1}, payload.Float8E4M3FN(0))),
	qdq("QuantizeLinear/float8e5m2_19", 19, nil, nil, rng(-100000, 100000, 12), fs(0.5), zpc(payload.F8E5M2, []int{1}, payload.Float8E5M2(0))),
	qdq("QuantizeLinear/int4_21", 21, nil, nil, rng(-20, 20, 12), fs(1.5), zpc(payload.I4, nil, payload.Int4(1))),
	qdq("QuantizeLinear/uint4_blocked_21", 21, attrs(ai("axis", 1), ai("block_size", 4)), nil, rng(-5, 40, 2, 8), pos(2, 2).c(), zpc(payload.U4, []int{2, 2}, payload.Uint4(0), 3, 8, 15)),

	c1("DequantizeLinear/uint8_10", 10, "DequantizeLinear", nil, typed(U8, 3, 4), fs(0.5), u8z(nil, 128)).outs(F32),
	c1("DequantizeLinear/int8_per_axis_13", 13, "DequantizeLinear", nil, typed(I8, 2, 3, 4), fc([]int{3}, 0.01, 0.02, 0.05), i8z([]int{3}, -3, 0, 7)).outs(F32),
	c1("DequantizeLinear/int32_13", 13, "DequantizeLinear", nil, typed(I32, 7), fs(0.25)).outs(F32),
	c1("DequantizeLinear/blocked_21", 21, "DequantizeLinear", attrs(ai("axis", 0), ai("block_size", 2)), typed(U8, 5, 3), pos(3, 3).c(), u8z([]int{3, 3}, 0, 10, 20, 30, 40, 50, 60, 70, 80)).outs(F32),
	c1("DequantizeLinear/int16_21", 21, "DequantizeLinear", nil, typed(I16, 9), fs(0.1), zpc(I16, nil, int16(-20))).outs(F32),
	c1("DequantizeLinear/uint16_21", 21, "DequantizeLinear", nil, typed(U16, 9), fs(0.1), zpc(U16, nil, uint16(20))).outs(F32),
	c1("DequantizeLinear/float16_scale_21", 21, "DequantizeLinear", nil, typed(I8, 3, 4), zpc(F16, nil, float16Of(0.125)), i8z(nil, 3)).outs(F16),

	c1("DynamicQuantizeLinear/mixed_11", 11, "DynamicQuantizeLinear", nil, f32(3, 4)).outs(U8, F32, U8),
	c1("DynamicQuantizeLinear/negative_11", 11, "DynamicQuantizeLinear", nil, rng(-5, -1, 7)).outs(U8, F32, U8),
	c1("DynamicQuantizeLinear/positive_11", 11, "DynamicQuantizeLinear", nil, rng(1, 5, 2, 5)).outs(U8, F32, U8),

	c1("MatMulInteger/uint8_10", 10, "MatMulInteger", nil, typed(U8, 4, 3), typed(U8, 3, 2), u8z(nil, 12), u8z(nil, 3)).outs(I32),
	c1("MatMulInteger/int8_no_zero_point_10", 10, "MatMulInteger", nil, typed(I8, 5, 7), typed(I8, 7, 3)).outs(I32),
	c1("MatMulInteger/uint8_int8_10", 10, "MatMulInteger", nil, typed(U8, 2, 6), typed(I8, 6, 4), u8z(nil, 100)).outs(I32),
	c1("MatMulInteger/per_column_b_10", 10, "MatMulInteger", nil, typed(U8, 3, 4), typed(U8, 4, 3).c(), u8z(nil, 7), u8z([]int{3}, 1, 50, 200)).outs(I32),
	c1("MatMulInteger/uint8_int8_wide_10", 10, "MatMulInteger", nil, typed(U8, 37, 300), typed(I8, 300, 70).c(), u8z(nil, 100), i8z(nil, 3)).outs(I32),
	c1("MatMulInteger/batched_10", 10, "MatMulInteger", nil, typed(I8, 2, 3, 4), typed(I8, 4, 5), i8z(nil, -2), i8z(nil, 5)).outs(I32),

	c1("QLinearMatMul/uint8_10", 10, "QLinearMatMul", nil, typed(U8, 2, 4), fs(0.02), u8z(nil, 113), typed(U8, 4, 3), fs(0.007), u8z(nil, 114), fs(0.01), u8z(nil, 118)).outs(U8),
	c1("QLinearMatMul/int8_10", 10, "QLinearMatMul", nil, typed(I8, 3, 8), fs(0.05), i8z(nil, -3), typed(I8, 8, 5), fs(0.01), i8z(nil, 2), fs(0.2), i8z(nil, 4)).outs(I8),
	c1("QLinearMatMul/batched_21", 21, "QLinearMatMul", nil, typed(U8, 2, 3, 4), fs(0.03), u8z(nil, 100), typed(U8, 2, 4, 3), fs(0.02), u8z(nil, 90), fs(0.05), u8z(nil, 128)).outs(U8),
	c1("QLinearMatMul/per_column_b_10", 10, "QLinearMatMul", nil, typed(U8, 3, 4), fs(0.02), u8z(nil, 100), typed(U8, 4, 3).c(), fc([]int{3}, 0.01, 0.02, 0.005), u8z([]int{3}, 90, 100, 110), fs(0.1), u8z(nil, 120)).outs(U8),

	c1("ConvInteger/pads_10", 10, "ConvInteger", attrs(ais("pads", 1, 1, 1, 1)), typed(U8, 1, 2, 5, 5), typed(U8, 3, 2, 3, 3).c(), u8z(nil, 100), u8z(nil, 50)).outs(I32),
	c1("ConvInteger/no_zero_point_10", 10, "ConvInteger", nil, typed(U8, 1, 1, 4, 4), typed(U8, 2, 1, 2, 2).c()).outs(I32),
	c1("ConvInteger/wide_10", 10, "ConvInteger", attrs(ais("pads", 1, 1, 1, 1)), typed(U8, 1, 16, 20, 20), typed(U8, 24, 16, 3, 3).c(), u8z(nil, 120), u8z(nil, 130)).outs(I32),
	c1("ConvInteger/int8_weights_10", 10, "ConvInteger", attrs(ais("pads", 1, 1, 1, 1)), typed(U8, 1, 8, 9, 9), typed(I8, 16, 8, 3, 3).c(), u8z(nil, 7)).outs(I32),
	c1("ConvInteger/strides_10", 10, "ConvInteger", attrs(ais("strides", 2, 2)), typed(U8, 2, 3, 7, 7), typed(U8, 4, 3, 3, 3).c(), u8z(nil, 30)).outs(I32),

	c1("QLinearConv/uint8_10", 10, "QLinearConv", attrs(ais("pads", 1, 1, 1, 1)), typed(U8, 1, 2, 6, 6), fs(0.02), u8z(nil, 100), typed(U8, 3, 2, 3, 3).c(), fc([]int{1}, 0.01), u8z([]int{1}, 110), fs(0.1), u8z(nil, 120)).outs(U8),
	c1("QLinearConv/int8_per_channel_bias_10", 10, "QLinearConv", attrs(ais("strides", 2, 2)), typed(I8, 1, 3, 7, 7), fs(0.05), i8z(nil, -5), typed(I8, 4, 3, 3, 3).c(), fc([]int{4}, 0.01, 0.02, 0.005, 0.03), i8z([]int{4}, 0, 0, 0, 0), fs(0.5), i8z(nil, 3), typed(I32, 4).c()).outs(I8),
	c1("QLinearConv/uint8_int8_wide_10", 10, "QLinearConv", attrs(ais("pads", 1, 1, 1, 1)), typed(U8, 1, 16, 12, 12), fs(0.02), u8z(nil, 100), typed(I8, 32, 16, 3, 3).c(), fs(0.003), i8z(nil, 0), fs(0.1), u8z(nil, 120), typed(I32, 32).c()).outs(U8),
	c1("QLinearConv/depthwise_10", 10, "QLinearConv", attrs(ai("group", 4), ais("pads", 1, 1, 1, 1)), typed(U8, 1, 4, 5, 5), fs(0.03), u8z(nil, 120), typed(U8, 4, 1, 3, 3).c(), fs(0.02), u8z(nil, 128), fs(0.1), u8z(nil, 110)).outs(U8),
}

// float16Of converts v to float16.
func float16Of(v float32) float16.Float16 { return float16.Fromfloat32(v) }

func TestQuant(t *testing.T) { runCases(t, quantCases) }
