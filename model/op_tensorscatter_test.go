package model

import "testing"

func TestTensorScatterRule(t *testing.T) {
	ts := func(attrs ...Attr) *Node { return nd("TensorScatter", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "linear", opset: 24, node: ts(aS("mode", "linear")), in: []ruleIn{in(f32, 2, 1, 4, 5), in(f32, 2, 1, 1, 5), in(i64, 2)}, want: []sh{{f32, d(2, 1, 4, 5)}}},
		{name: "no write indices", opset: 24, node: ts(aI("axis", 1)), in: []ruleIn{in(f32, 3, 4, 5), in(f32, 3, 2, 5)}, want: []sh{{f32, d(3, 4, 5)}}},
		{name: "circular partial", opset: 24, node: ts(aS("mode", "circular")), in: []ruleIn{in(f32, -1, 4, 5), in(f32, 2, -1, 5), in(i64, -1)}, want: []sh{{f32, d(-1, 4, 5)}}},
		{name: "unknown rank", opset: 24, node: ts(), in: []ruleIn{unr(f32), in(f32, 2, 1, 5)}, want: []sh{{f32, nil}}},
		{name: "update too long", opset: 24, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 5, 5)}, err: invalid},
		{name: "update dim differs", runtime: true, opset: 24, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 1, 4)}, err: mismatch},
		{name: "update rank differs", opset: 24, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 5)}, err: invalid},
		{name: "batch axis", opset: 24, node: ts(aI("axis", 0)), in: []ruleIn{in(f32, 2, 4), in(f32, 1, 4)}, err: invalid},
		{name: "write indices length", opset: 24, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 1, 5), in(i64, 3)}, err: invalid},
		{name: "write indices int32", opset: 24, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 1, 5), in(i32, 2)}, err: invalid},
		{name: "types differ", opset: 24, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(i64, 2, 1, 5)}, err: invalid},
		{name: "unknown mode", opset: 24, node: ts(aS("mode", "ring")), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 1, 5)}, err: invalid},
		{name: "before opset 24", opset: 23, node: ts(), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 1, 5)}, err: unsupp},
	})
}

func TestTensorScatterRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "tensorscatter", opset: 24, node: nd("TensorScatter", nil, nil), in: []ruleIn{in(f32, 2, 4, 5), in(f32, 2, 1, 5), in(i64, 2)}})
}
