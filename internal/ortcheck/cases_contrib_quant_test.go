//go:build ort

package ortcheck

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/onnxbuild"
)

// qbin is a QLinearAdd or QLinearMul case of 8-bit a and b (uint8 unless
// s8) with per-tensor scales and zero points.
func qbin(op, name string, s8 bool, a, b []int) tc {
	dt := U8
	az, bz, cz := u8z(nil, 120), u8z(nil, 90), u8z(nil, 128)
	if s8 {
		dt = I8
		az, bz, cz = i8z(nil, -5), i8z(nil, 12), i8z(nil, 3)
	}
	return ms(op+"/"+name, op, nil, typed(dt, a...), fs(0.031), az, typed(dt, b...), fs(0.017), bz, fs(0.045), cz)
}

// qlut is a QLinearSigmoid or QLinearLeakyRelu case of X of shape x.
func qlut(op, name string, s8 bool, at []onnxbuild.Attr, x ...int) tc {
	if s8 {
		return ms(op+"/"+name, op, at, typed(I8, x...), fs(0.05), i8z(nil, -10), fs(0.0041), i8z(nil, -128))
	}
	return ms(op+"/"+name, op, at, typed(U8, x...), fs(0.05), u8z(nil, 100), fs(0.0042), u8z(nil, 0))
}

var contribQuantCases = []tc{
	qbin("QLinearAdd", "same_shape_u8", false, []int{3, 70}, []int{3, 70}),
	qbin("QLinearAdd", "same_shape_s8", true, []int{5, 33}, []int{5, 33}),
	qbin("QLinearAdd", "row_broadcast_u8", false, []int{4, 6, 16}, []int{16}),
	qbin("QLinearAdd", "scalar_b_u8", false, []int{2, 100}, []int{1}),
	qbin("QLinearAdd", "scalar_a_s8", true, []int{1}, []int{3, 41}),
	qbin("QLinearAdd", "column_broadcast_s8", true, []int{6, 1}, []int{6, 9}),
	qbin("QLinearAdd", "both_broadcast_u8", false, []int{3, 1, 5}, []int{1, 4, 1}),
	qbin("QLinearMul", "same_shape_u8", false, []int{3, 70}, []int{3, 70}),
	qbin("QLinearMul", "same_shape_s8", true, []int{5, 33}, []int{5, 33}),
	qbin("QLinearMul", "row_broadcast_s8", true, []int{4, 6, 16}, []int{6, 16}),
	qbin("QLinearMul", "scalar_a_u8", false, []int{1}, []int{7, 9}),
	qbin("QLinearMul", "column_broadcast_u8", false, []int{2, 5, 1}, []int{2, 5, 8}),

	// Random scales and zero points, drawn anew for each seed.
	ms("QLinearAdd/random_parameters_u8", "QLinearAdd", nil, typed(U8, 4, 300), rng(0.001, 0.2).c(), typed(U8).c(), typed(U8, 300), rng(0.001, 0.2).c(), typed(U8).c(), rng(0.001, 0.2).c(), typed(U8).c()),
	ms("QLinearAdd/random_parameters_scalar_b_s8", "QLinearAdd", nil, typed(I8, 4, 300), rng(0.001, 0.2).c(), typed(I8).c(), typed(I8, 4, 1), rng(0.001, 0.2).c(), typed(I8).c(), rng(0.001, 0.2).c(), typed(I8).c()),
	ms("QLinearMul/random_parameters_s8", "QLinearMul", nil, typed(I8, 4, 300), rng(0.001, 0.2).c(), typed(I8).c(), typed(I8, 300), rng(0.001, 0.2).c(), typed(I8).c(), rng(0.01, 2).c(), typed(I8).c()),
	ms("QLinearSigmoid/random_parameters_s8", "QLinearSigmoid", nil, typed(I8, 512), rng(0.001, 0.3).c(), typed(I8).c(), rng(0.002, 0.01).c(), typed(I8).c()),
	ms("QLinearLeakyRelu/random_parameters_u8", "QLinearLeakyRelu", attrs(af("alpha", 0.37)), typed(U8, 512), rng(0.001, 0.3).c(), typed(U8).c(), rng(0.001, 0.3).c(), typed(U8).c()),
	ms("QLinearGlobalAveragePool/random_parameters_u8", "QLinearGlobalAveragePool", nil, typed(U8, 2, 6, 9, 9), rng(0.01, 0.1).c(), typed(U8).c(), rng(0.01, 0.1).c(), typed(U8).c()),
	ms("QLinearConcat/random_parameters_s8", "QLinearConcat", attrs(ai("axis", 1)), rng(0.01, 0.1).c(), typed(I8).c(),
		typed(I8, 2, 50), rng(0.01, 0.1).c(), typed(I8).c(), typed(I8, 2, 70), rng(0.01, 0.1).c(), typed(I8).c()).outs(I8),

	// Large enough for the tables of 2¹⁶ pairs and of 256 values a row.
	ms("QLinearAdd/table_u8", "QLinearAdd", nil, typed(U8, 2, 64, 130), rng(0.001, 0.2).c(), typed(U8).c(), typed(U8, 2, 64, 130), rng(0.001, 0.2).c(), typed(U8).c(), rng(0.001, 0.2).c(), typed(U8).c()),
	ms("QLinearAdd/table_scalar_rows_s8", "QLinearAdd", nil, typed(I8, 3, 1), rng(0.001, 0.2).c(), typed(I8).c(), typed(I8, 3, 700), rng(0.001, 0.2).c(), typed(I8).c(), rng(0.001, 0.2).c(), typed(I8).c()),
	ms("QLinearAdd/table_scalar_b_u8", "QLinearAdd", nil, typed(U8, 40, 600), rng(0.001, 0.2).c(), typed(U8).c(), typed(U8, 40, 1), rng(0.001, 0.2).c(), typed(U8).c(), rng(0.001, 0.2).c(), typed(U8).c()),
	ms("QLinearMul/table_s8", "QLinearMul", nil, typed(I8, 2, 64, 130), rng(0.001, 0.2).c(), typed(I8).c(), typed(I8, 2, 64, 130), rng(0.001, 0.2).c(), typed(I8).c(), rng(0.01, 2).c(), typed(I8).c()),
	ms("QLinearMul/table_scalar_rows_u8", "QLinearMul", nil, typed(U8, 5, 600), rng(0.001, 0.2).c(), typed(U8).c(), typed(U8, 5, 1), rng(0.001, 0.2).c(), typed(U8).c(), rng(0.01, 2).c(), typed(U8).c()),

	qlut("QLinearSigmoid", "u8", false, nil, 4, 256),
	qlut("QLinearSigmoid", "s8", true, nil, 2, 3, 300),
	ms("QLinearSigmoid/fed_scales", "QLinearSigmoid", nil, typed(U8, 600), fs(0.08).fed(), u8z(nil, 128).fed(), fs(1.0/256).fed(), u8z(nil, 0).fed()),
	qlut("QLinearLeakyRelu", "u8", false, attrs(af("alpha", 0.1)), 4, 256),
	qlut("QLinearLeakyRelu", "s8_default_alpha", true, nil, 700),

	ms("QLinearGlobalAveragePool/nchw_u8", "QLinearGlobalAveragePool", nil, typed(U8, 2, 5, 7, 7), fs(0.03), u8z(nil, 100), fs(0.02), u8z(nil, 110)),
	ms("QLinearGlobalAveragePool/nchw_s8", "QLinearGlobalAveragePool", nil, typed(I8, 1, 8, 13), fs(0.03), i8z(nil, -3), fs(0.011), i8z(nil, 5)),
	ms("QLinearGlobalAveragePool/nhwc_u8", "QLinearGlobalAveragePool", attrs(ai("channels_last", 1)), typed(U8, 2, 6, 6, 24), fs(0.04), u8z(nil, 128), fs(0.03), u8z(nil, 120)),
	ms("QLinearGlobalAveragePool/nhwc_s8", "QLinearGlobalAveragePool", attrs(ai("channels_last", 1)), typed(I8, 3, 4, 5, 3, 10), fs(0.02), i8z(nil, 0), fs(0.05), i8z(nil, -7)),

	ms("QLinearAveragePool/k3_pads_u8", "QLinearAveragePool", attrs(ais("kernel_shape", 3, 3), ais("pads", 1, 1, 1, 1)),
		typed(U8, 2, 3, 9, 11), fs(0.03), u8z(nil, 100), fs(0.02), u8z(nil, 110)),
	ms("QLinearAveragePool/k2s2_count_pads_s8", "QLinearAveragePool", attrs(ais("kernel_shape", 2, 2), ais("strides", 2, 2), ais("pads", 1, 0, 1, 1), ai("count_include_pad", 1)),
		typed(I8, 1, 4, 7, 8), fs(0.05), i8z(nil, -3), fs(0.04), i8z(nil, 6)),
	ms("QLinearAveragePool/nhwc_ceil_u8", "QLinearAveragePool", attrs(ais("kernel_shape", 3, 3), ais("strides", 2, 2), ai("ceil_mode", 1), ai("channels_last", 1)),
		typed(U8, 2, 8, 10, 5), fs(0.04), u8z(nil, 128), fs(0.03), u8z(nil, 120)),
	ms("QLinearAveragePool/same_upper_s8", "QLinearAveragePool", attrs(ais("kernel_shape", 3, 2), ais("strides", 2, 1), as("auto_pad", "SAME_UPPER")),
		typed(I8, 1, 3, 9, 6), fs(0.02), i8z(nil, 0), fs(0.015), i8z(nil, -2)),
	ms("QLinearAveragePool/1d_u8", "QLinearAveragePool", attrs(ais("kernel_shape", 4), ais("strides", 3), ais("pads", 2, 1)),
		typed(U8, 2, 5, 20), fs(0.01), u8z(nil, 30), fs(0.01), u8z(nil, 40)),
	ms("QLinearAveragePool/3d_s8", "QLinearAveragePool", attrs(ais("kernel_shape", 2, 3, 2), ais("pads", 0, 1, 1, 1, 1, 0)),
		typed(I8, 1, 2, 4, 5, 6), fs(0.03), i8z(nil, 4), fs(0.02), i8z(nil, -1)),
	ms("QLinearAveragePool/whole_image_u8", "QLinearAveragePool", attrs(ais("kernel_shape", 7, 7)),
		typed(U8, 2, 6, 7, 7), fs(0.03), u8z(nil, 100), fs(0.02), u8z(nil, 110)),

	ms("QLinearConcat/u8_axis1", "QLinearConcat", attrs(ai("axis", 1)), fs(0.05), u8z(nil, 128),
		typed(U8, 2, 3, 4), fs(0.05), u8z(nil, 128), typed(U8, 2, 5, 4), fs(0.02), u8z(nil, 100)).outs(U8),
	ms("QLinearConcat/s8_last_axis", "QLinearConcat", attrs(ai("axis", -1)), fs(0.03), i8z(nil, 2),
		typed(I8, 3, 7), fs(0.06), i8z(nil, -4), typed(I8, 3, 2), fs(0.01), i8z(nil, 9), typed(I8, 3, 5), fs(0.03), i8z(nil, 2)).outs(I8),
	ms("QLinearConcat/fed_scales", "QLinearConcat", attrs(ai("axis", 0)), fs(0.04), u8z(nil, 120),
		typed(U8, 2, 6), fs(0.07).fed(), u8z(nil, 130).fed(), typed(U8, 3, 6), fs(0.04), u8z(nil, 120)).outs(U8),
}

func TestContribQuant(t *testing.T) { runCases(t, contribQuantCases) }

// exact sets a float case's tolerance to 1e-5.
func exact(c tc) tc { c.tol = 1e-5; return c }

var contribQGemmCases = []tc{
	ms("QGemm/u8_requant", "QGemm", nil, typed(U8, 5, 12), fs(0.02), u8z(nil, 110), typed(U8, 12, 7).c(), fs(0.01), u8z(nil, 120), none, fs(0.3), u8z(nil, 128)).outs(U8),
	ms("QGemm/u8_s8_per_column_bias_transB", "QGemm", attrs(ai("transB", 1), af("alpha", 0.5)), typed(U8, 9, 40), fs(0.02), u8z(nil, 100),
		typed(I8, 35, 40).c(), rng(0.001, 0.01, 35).c(), i8z([]int{35}, make([]int8, 35)...), typed(I32, 35).c(), fs(0.2), u8z(nil, 90)).outs(U8),
	ms("QGemm/s8_float_out", "QGemm", nil, typed(I8, 6, 33), fs(0.03), i8z(nil, 4), typed(I8, 33, 20).c(), fs(0.02), i8z(nil, 0)).outs(F32),
	ms("QGemm/s8_transA_fed_b_bias_rows", "QGemm", attrs(ai("transA", 1)), typed(I8, 17, 4), fs(0.03), i8z(nil, -2), typed(I8, 17, 9), fs(0.05), i8z(nil, 3), typed(I32, 4, 1).c(), fs(0.9), i8z(nil, -5)).outs(I8),
	ms("QGemm/u8_float_out_bias_matrix", "QGemm", attrs(af("alpha", 2)), typed(U8, 3, 70), fs(0.01), u8z(nil, 128), typed(U8, 70, 5).c(), fc([]int{5}, 0.01, 0.02, 0.03, 0.015, 0.005), u8z([]int{5}, 100, 110, 120, 130, 140), typed(I32, 3, 5).c()).outs(F32),

	ms("QGemm/u8_s8_wide", "QGemm", nil, typed(U8, 37, 300), fs(0.01), u8z(nil, 100), typed(I8, 300, 70).c(), fs(0.002), i8z(nil, 3), typed(I32, 70).c(), fs(0.5), u8z(nil, 120)).outs(U8),
	exact(ms("MatMulIntegerToFloat/u8_u8_per_column_zero_points", "MatMulIntegerToFloat", nil, typed(U8, 6, 20), typed(U8, 20, 4).c(), fs(0.02), fc([]int{4}, 0.01, 0.02, 0.03, 0.04), u8z(nil, 7), u8z([]int{4}, 90, 100, 110, 120)).outs(F32)),
	exact(ms("MatMulIntegerToFloat/u8_u8", "MatMulIntegerToFloat", nil, typed(U8, 4, 16), typed(U8, 16, 8).c(), fs(0.02), fs(0.01), u8z(nil, 100), u8z(nil, 120)).outs(F32)),
	exact(ms("MatMulIntegerToFloat/u8_s8_per_column_bias", "MatMulIntegerToFloat", nil, typed(U8, 2, 7, 40), typed(I8, 40, 24).c(), fs(0.02), rng(0.001, 0.01, 24).c(), u8z(nil, 128), i8z([]int{24}, make([]int8, 24)...), f32(24).c()).outs(F32)),
	exact(ms("MatMulIntegerToFloat/s8_s8_fed_b", "MatMulIntegerToFloat", nil, typed(I8, 3, 5, 12), typed(I8, 12, 6), fs(0.03), fs(0.02), i8z(nil, 5), i8z(nil, -3)).outs(F32)),
	exact(ms("MatMulIntegerToFloat/no_zero_points", "MatMulIntegerToFloat", nil, typed(U8, 5, 33), typed(U8, 33, 9).c(), fs(0.03), fs(0.02)).outs(F32)),

	exact(ms("DynamicQuantizeMatMul/u8", "DynamicQuantizeMatMul", nil, f32(6, 32), typed(U8, 32, 16).c(), fs(0.02), u8z(nil, 120))),
	exact(ms("DynamicQuantizeMatMul/s8_per_column_bias", "DynamicQuantizeMatMul", nil, rng(-3, 1, 2, 9, 64), typed(I8, 64, 40).c(), rng(0.001, 0.01, 40).c(), i8z([]int{40}, make([]int8, 40)...), f32(40).c())),
	exact(ms("DynamicQuantizeMatMul/s8_no_zero_point_fed_b", "DynamicQuantizeMatMul", nil, f32(3, 20), typed(I8, 20, 11), fs(0.05))),
	exact(ms("DynamicQuantizeMatMul/batched_b", "DynamicQuantizeMatMul", nil, f32(2, 3, 10), typed(I8, 2, 10, 4).c(), fs(0.05), i8z(nil, 1))),
}

func TestContribQGemm(t *testing.T) { runCases(t, contribQGemmCases) }
