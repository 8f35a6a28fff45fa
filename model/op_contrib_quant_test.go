package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestMSQuantRules(t *testing.T) {
	u8, s8, i32 := payload.Uint8, payload.Int8, payload.Int32
	sc := in(f32)
	zu, zs := in(u8), in(s8)
	iAttr := func(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
	runRules(t, []ruleCase{
		{name: "QLinearAdd", node: msn("QLinearAdd"), in: []ruleIn{in(u8, 2, 3), sc, zu, in(u8, 3), sc, zu, sc, zu}, want: []sh{{u8, []int{2, 3}}}},
		{name: "QLinearMul broadcast", node: msn("QLinearMul"), in: []ruleIn{in(s8, 2, 1, 4), sc, zs, in(s8, 3, 1), sc, zs, sc, zs}, want: []sh{{s8, []int{2, 3, 4}}}},
		{name: "QLinearAdd no C zero point", node: msn("QLinearAdd"), in: []ruleIn{in(u8, 4), sc, absent, in(u8, 4), sc, absent, sc}, want: []sh{{u8, []int{4}}}},
		{name: "QLinearAdd partial", node: msn("QLinearAdd"), in: []ruleIn{in(u8, -1, 3), sc, zu, in(u8, 3), sc, zu, sc, zu}, want: []sh{{u8, []int{-1, 3}}}},
		{name: "QLinearAdd shapes", node: msn("QLinearAdd"), in: []ruleIn{in(u8, 2, 3), sc, zu, in(u8, 4), sc, zu, sc, zu}, err: invalid},
		{name: "QLinearAdd runtime shapes", runtime: true, node: msn("QLinearAdd"), in: []ruleIn{in(u8, 2, 3), sc, zu, in(u8, 4), sc, zu, sc, zu}, err: mismatch},
		{name: "QLinearAdd without B", node: msn("QLinearAdd"), in: []ruleIn{in(u8, 2, 3), sc}, want: []sh{{u8, []int{2, 3}}}},
		{name: "QLinearSigmoid without Y_scale", node: msn("QLinearSigmoid"), in: []ruleIn{in(u8, 2, 3), sc}, want: []sh{{u8, []int{2, 3}}}},
		{name: "QLinearSigmoid", node: msn("QLinearSigmoid"), in: []ruleIn{in(s8, 5, 7), sc, zs, sc, zs}, want: []sh{{s8, []int{5, 7}}}},
		{name: "QLinearLeakyRelu", node: msn("QLinearLeakyRelu", Attr{Name: "alpha", Type: AttrFloat, F: 0.2}), in: []ruleIn{unr(u8), sc, zu, sc}, want: []sh{{u8, nil}}},
		{name: "QLinearLeakyRelu bad alpha", node: msn("QLinearLeakyRelu", iAttr("alpha", 1)), in: []ruleIn{in(u8, 2), sc, zu, sc, zu}, err: invalid},
		{name: "QLinearGlobalAveragePool", node: msn("QLinearGlobalAveragePool"), in: []ruleIn{in(u8, 2, 8, 7, 7), sc, zu, sc, zu}, want: []sh{{u8, []int{2, 8, 1, 1}}}},
		{name: "QLinearGlobalAveragePool channels last", node: msn("QLinearGlobalAveragePool", iAttr("channels_last", 1)), in: []ruleIn{in(s8, 2, 7, 5, 8), sc, zs, sc, zs}, want: []sh{{s8, []int{2, 1, 1, 8}}}},
		{name: "QLinearGlobalAveragePool rank 2", node: msn("QLinearGlobalAveragePool"), in: []ruleIn{in(u8, 2, 8), sc, zu, sc, zu}, err: invalid},
		{name: "QLinearConcat", node: msn("QLinearConcat", iAttr("axis", 1)), in: []ruleIn{sc, zu, in(u8, 2, 3), sc, zu, in(u8, 2, 5), sc, zu}, want: []sh{{u8, []int{2, 8}}}},
		{name: "QLinearConcat partial", node: msn("QLinearConcat", iAttr("axis", -1)), in: []ruleIn{sc, zs, in(s8, 2, -1), sc, zs, in(s8, -1, 5), sc, zs}, want: []sh{{s8, []int{2, -1}}}},
		{name: "QLinearConcat dims differ", node: msn("QLinearConcat", iAttr("axis", 0)), in: []ruleIn{sc, zu, in(u8, 2, 3), sc, zu, in(u8, 2, 5), sc, zu}, err: invalid},
		{name: "QLinearConcat no axis", node: msn("QLinearConcat"), in: []ruleIn{sc, zu, in(u8, 2, 3), sc, zu}, err: invalid},
		{name: "QLinearConcat triples", node: msn("QLinearConcat", iAttr("axis", 0)), in: []ruleIn{sc, zu, in(u8, 2, 3), sc, zu, in(u8, 2, 3)}, err: invalid},
		{name: "QGemm requantized", node: msn("QGemm"), in: []ruleIn{in(u8, 4, 6), sc, zu, in(s8, 6, 5), sc, zs, in(i32, 5), sc, zu}, want: []sh{{u8, []int{4, 5}}}},
		{name: "QGemm float", node: msn("QGemm", iAttr("transA", 1), iAttr("transB", 1)), in: []ruleIn{in(s8, 6, 4), sc, zs, in(s8, 5, 6), sc, zs}, want: []sh{{f32, []int{4, 5}}}},
		{name: "QGemm K", node: msn("QGemm"), in: []ruleIn{in(u8, 4, 6), sc, zu, in(u8, 7, 5), sc, zu}, err: invalid},
		{name: "QGemm C", node: msn("QGemm"), in: []ruleIn{in(u8, 4, 6), sc, zu, in(u8, 6, 5), sc, zu, in(i32, 3)}, err: invalid},
		{name: "MatMulIntegerToFloat", node: msn("MatMulIntegerToFloat"), in: []ruleIn{in(u8, 2, 3, 8), in(s8, 8, 4), sc, sc, zu, zs, in(f32, 4)}, want: []sh{{f32, []int{2, 3, 4}}}},
		{name: "MatMulIntegerToFloat bias", node: msn("MatMulIntegerToFloat"), in: []ruleIn{in(u8, 3, 8), in(s8, 8, 4), sc, sc, absent, absent, in(f32, 5)}, err: invalid},
		{name: "DynamicQuantizeMatMul", node: msn("DynamicQuantizeMatMul"), in: []ruleIn{in(f32, -1, 16), in(u8, 16, 9), sc}, want: []sh{{f32, []int{-1, 9}}}},
		{name: "DynamicQuantizeMatMul unknown rank", node: msn("DynamicQuantizeMatMul"), in: []ruleIn{unr(f32), in(s8, 16, 9), sc, zs, in(f32, 9)}, want: []sh{{f32, nil}}},
		{name: "DynamicQuantizeMatMul K", node: msn("DynamicQuantizeMatMul"), in: []ruleIn{in(f32, 3, 15), in(u8, 16, 9), sc}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: msn("QLinearAdd"), in: []ruleIn{in(u8, 2, 1, 3), sc, zu, in(u8, 4, 1), sc, zu, sc, zu}})
	wantNoAllocs(t, ruleCase{node: msn("QLinearConcat", iAttr("axis", 1)), in: []ruleIn{sc, zu, in(u8, 2, 3), sc, zu, in(u8, 2, 5), sc, zu}})
	wantNoAllocs(t, ruleCase{node: msn("QGemm"), in: []ruleIn{in(u8, 4, 6), sc, zu, in(s8, 6, 5), sc, zs, in(i32, 5), sc, zu}})
	wantNoAllocs(t, ruleCase{node: msn("QLinearGlobalAveragePool"), in: []ruleIn{in(u8, 2, 8, 7, 7), sc, zu, sc, zu}})
	wantNoAllocs(t, ruleCase{node: msn("DynamicQuantizeMatMul"), in: []ruleIn{in(f32, 3, 16), in(u8, 16, 9), sc, zu, in(f32, 9)}})
}
