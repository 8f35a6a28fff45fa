package model

import "testing"

func TestGatherRule(t *testing.T) {
	g := func(attrs ...Attr) *Node { return nd("Gather", nil, nil, attrs...) }
	ge := func(attrs ...Attr) *Node { return nd("GatherElements", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "axis 1", node: g(aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(i64, 5, 6)}, want: []sh{{f32, d(2, 5, 6, 4)}}},
		{name: "scalar index", node: g(), in: []ruleIn{in(i64, 3), in(i64)}, want: []sh{{i64, d()}}},
		{name: "negative axis", node: g(aI("axis", -1)), in: []ruleIn{in(f32, 2, -1), in(i32, 3)}, want: []sh{{f32, d(2, 3)}}},
		{name: "opset 1", opset: 1, node: g(), in: []ruleIn{in(f32, 4, 2), in(i64, 3)}, want: []sh{{f32, d(3, 2)}}},
		{name: "unknown indices rank", node: g(), in: []ruleIn{in(f32, 4, 2), unr(i64)}, want: []sh{{f32, nil}}},
		{name: "axis out of range", node: g(aI("axis", 2)), in: []ruleIn{in(f32, 4, 2), in(i64, 3)}, err: invalid},
		{name: "axis out of range at run time", runtime: true, node: g(aI("axis", -3)), in: []ruleIn{in(f32, 4, 2), in(i64, 3)}, err: mismatch},
		{name: "rank too large", node: g(), in: []ruleIn{in(f32, 4), in(i64, make([]int, 300)...)}, err: invalid},
		{name: "one input", node: g(), in: []ruleIn{in(f32, 4)}, err: invalid},
		{name: "elements", node: ge(aI("axis", 2)), in: []ruleIn{in(f32, 2, 3, 4), in(i64, 2, 3, 1)}, want: []sh{{f32, d(2, 3, 1)}}},
		{name: "elements larger on axis", node: ge(), in: []ruleIn{in(f32, 2, 3), in(i64, 5, 3)}, want: []sh{{f32, d(5, 3)}}},
		{name: "elements unknown indices", node: ge(), in: []ruleIn{in(f32, 2, 3), unr(i64)}, want: []sh{{f32, nil}}},
		{name: "elements unknown data", node: ge(), in: []ruleIn{unr(f32), in(i64, 2, -1)}, want: []sh{{f32, d(2, -1)}}},
		{name: "elements rank differs", node: ge(), in: []ruleIn{in(f32, 2, 3), in(i64, 2)}, err: invalid},
		{name: "elements exceeds data", runtime: true, node: ge(), in: []ruleIn{in(f32, 2, 3), in(i64, 2, 4)}, err: mismatch},
		{name: "elements before opset 11", opset: 10, node: ge(), in: []ruleIn{in(f32, 2), in(i64, 2)}, err: unsupp},
	})
}

func TestGatherRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "gather", node: nd("Gather", nil, nil, aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(i64, 5, 6)}})
}
