package model

import "testing"

func TestConcatRule(t *testing.T) {
	cat := func(attrs ...Attr) *Node { return nd("Concat", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "axis 1", node: cat(aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(f32, 2, 5, 4)}, want: []sh{{f32, d(2, 8, 4)}}},
		{name: "negative axis", node: cat(aI("axis", -2)), in: []ruleIn{in(f32, -1, 3, 4), in(f32, 2, 5, 4)}, want: []sh{{f32, d(2, 8, 4)}}},
		{name: "one input", node: cat(aI("axis", 0)), in: []ruleIn{in(f32, 3, 2)}, want: []sh{{f32, d(3, 2)}}},
		{name: "unknown part", node: cat(aI("axis", 1)), in: []ruleIn{in(f32, 2, -1), in(f32, 2, 5)}, want: []sh{{f32, d(2, -1)}}},
		{name: "unknown rank input", node: cat(aI("axis", 0)), in: []ruleIn{unr(f32), in(f32, 2, 5)}, want: []sh{{f32, d(-1, 5)}}},
		{name: "all unknown rank", node: cat(aI("axis", 0)), in: []ruleIn{unr(f32), unr(f32)}, want: []sh{{f32, nil}}},
		{name: "opset 1 default axis", opset: 1, node: cat(), in: []ruleIn{in(f32, 2, 3), in(f32, 2, 1)}, want: []sh{{f32, d(2, 4)}}},
		{name: "no axis from opset 4", opset: 4, node: cat(), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "mismatch", node: cat(aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(f32, 3, 5, 4)}, err: invalid},
		{name: "mismatch at run time", runtime: true, node: cat(aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(f32, 3, 5, 4)}, err: mismatch},
		{name: "ranks differ", node: cat(aI("axis", 0)), in: []ruleIn{in(f32, 2, 3), in(f32, 3)}, err: invalid},
		{name: "axis out of range", node: cat(aI("axis", 2)), in: []ruleIn{in(f32, 2, 3)}, err: invalid},
		{name: "overflow", node: cat(aI("axis", 0)), in: []ruleIn{in(f32, maxDimValue), in(f32, 2)}, err: invalid},
		{name: "empty input", node: cat(aI("axis", 0)), in: []ruleIn{in(f32, 2), absent, in(f32, 2)}, err: invalid},
	})
}

func TestConcatRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "concat", node: nd("Concat", nil, nil, aI("axis", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(f32, 2, 5, 4), in(f32, 2, 1, 4)}})
}
