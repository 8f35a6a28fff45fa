package model

import "testing"

func TestUniqueRule(t *testing.T) {
	outs := []string{"y", "idx", "inv", "cnt"}
	un := func(attrs ...Attr) *Node { return nd("Unique", nil, outs, attrs...) }
	runRules(t, []ruleCase{
		{name: "flat", opset: 11, node: un(), in: []ruleIn{in(f32, 2, 3)}, want: []sh{{f32, d(-1)}, {i64, d(-1)}, {i64, d(6)}, {i64, d(-1)}}},
		{name: "axis", node: un(aI("axis", 1), aI("sorted", 0)), in: []ruleIn{in(i64, 2, 4, 2)}, want: []sh{{i64, d(2, -1, 2)}, {i64, d(-1)}, {i64, d(4)}, {i64, d(-1)}}},
		{name: "negative axis", node: un(aI("axis", -1)), in: []ruleIn{in(f32, 2, 3)}, want: []sh{{f32, d(2, -1)}, {i64, d(-1)}, {i64, d(3)}, {i64, d(-1)}}},
		{name: "partial", node: un(), in: []ruleIn{in(f32, -1, 3)}, want: []sh{{f32, d(-1)}, {i64, d(-1)}, {i64, d(-1)}, {i64, d(-1)}}},
		{name: "unknown rank", node: un(), in: []ruleIn{unr(f32)}, want: []sh{{f32, d(-1)}, {i64, d(-1)}, {i64, d(-1)}, {i64, d(-1)}}},
		{name: "unknown rank with axis", node: un(aI("axis", 0)), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}, {i64, d(-1)}, {i64, d(-1)}, {i64, d(-1)}}},
		{name: "one output", node: nd("Unique", nil, nil), in: []ruleIn{in(f32, 4)}, want: []sh{{f32, d(-1)}}},
		{name: "axis out of range", node: un(aI("axis", 2)), in: []ruleIn{in(f32, 2, 3)}, err: invalid},
		{name: "before opset 11", opset: 10, node: un(), in: []ruleIn{in(f32, 2)}, err: unsupp},
	})
}

func TestUniqueRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "unique", node: nd("Unique", nil, []string{"y", "idx", "inv", "cnt"}, aI("axis", 1)), in: []ruleIn{in(f32, 2, 3)}})
}
