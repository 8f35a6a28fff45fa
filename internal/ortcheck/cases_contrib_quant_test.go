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

	qlut("QLinearSigmoid", "u8", false, nil, 4, 256),
	qlut("QLinearSigmoid", "s8", true, nil, 2, 3, 300),
	ms("QLinearSigmoid/fed_scales", "QLinearSigmoid", nil, typed(U8, 600), fs(0.08).fed(), u8z(nil, 128).fed(), fs(1.0/256).fed(), u8z(nil, 0).fed()),
	qlut("QLinearLeakyRelu", "u8", false, attrs(af("alpha", 0.1)), 4, 256),
	qlut("QLinearLeakyRelu", "s8_default_alpha", true, nil, 700),

	ms("QLinearGlobalAveragePool/nchw_u8", "QLinearGlobalAveragePool", nil, typed(U8, 2, 5, 7, 7), fs(0.03), u8z(nil, 100), fs(0.02), u8z(nil, 110)),
	ms("QLinearGlobalAveragePool/nchw_s8", "QLinearGlobalAveragePool", nil, typed(I8, 1, 8, 13), fs(0.03), i8z(nil, -3), fs(0.011), i8z(nil, 5)),
	ms("QLinearGlobalAveragePool/nhwc_u8", "QLinearGlobalAveragePool", attrs(ai("channels_last", 1)), typed(U8, 2, 6, 6, 24), fs(0.04), u8z(nil, 128), fs(0.03), u8z(nil, 120)),
	ms("QLinearGlobalAveragePool/nhwc_s8", "QLinearGlobalAveragePool", attrs(ai("channels_last", 1)), typed(I8, 3, 4, 5, 3, 10), fs(0.02), i8z(nil, 0), fs(0.05), i8z(nil, -7)),

	ms("QLinearConcat/u8_axis1", "QLinearConcat", attrs(ai("axis", 1)), fs(0.05), u8z(nil, 128),
		typed(U8, 2, 3, 4), fs(0.05), u8z(nil, 128), typed(U8, 2, 5, 4), fs(0.02), u8z(nil, 100)).outs(U8),
	ms("QLinearConcat/s8_last_axis", "QLinearConcat", attrs(ai("axis", -1)), fs(0.03), i8z(nil, 2),
		typed(I8, 3, 7), fs(0.06), i8z(nil, -4), typed(I8, 3, 2), fs(0.01), i8z(nil, 9), typed(I8, 3, 5), fs(0.03), i8z(nil, 2)).outs(I8),
	ms("QLinearConcat/fed_scales", "QLinearConcat", attrs(ai("axis", 0)), fs(0.04), u8z(nil, 120),
		typed(U8, 2, 6), fs(0.07).fed(), u8z(nil, 130).fed(), typed(U8, 3, 6), fs(0.04), u8z(nil, 120)).outs(U8),
}

func TestContribQuant(t *testing.T) { runCases(t, contribQuantCases) }
