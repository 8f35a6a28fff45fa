package model

import "testing"

func TestFlattenRule(t *testing.T) {
	flat := func(attrs ...Attr) *Node { return nd("Flatten", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "default axis", node: flat(), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{f32, d(2, 12)}}},
		{name: "axis 0", node: flat(aI("axis", 0)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{f32, d(1, 24)}}},
		{name: "axis rank", node: flat(aI("axis", 3)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{f32, d(24, 1)}}},
		{name: "negative axis", node: flat(aI("axis", -1)), in: []ruleIn{in(f32, -1, 3, 4)}, want: []sh{{f32, d(-1, 4)}}},
		{name: "zero dim beats unknown", node: flat(aI("axis", 2)), in: []ruleIn{in(f32, -1, 0, 4)}, want: []sh{{f32, d(0, 4)}}},
		{name: "unknown rank", node: flat(), in: []ruleIn{unr(f32)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "opset 1", opset: 1, node: flat(), in: []ruleIn{in(i64, 5, 2)}, want: []sh{{i64, d(5, 2)}}},
		{name: "axis out of range", node: flat(aI("axis", 4)), in: []ruleIn{in(f32, 2, 3, 4)}, err: invalid},
		{name: "axis out of range at run time", runtime: true, node: flat(aI("axis", -4)), in: []ruleIn{in(f32, 2, 3, 4)}, err: mismatch},
		{name: "axis of the wrong type", node: flat(aF("axis", 1)), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "overflow", node: flat(aI("axis", 0)), in: []ruleIn{in(f32, 1<<40, 1<<40)}, err: invalid},
		{name: "two inputs", node: flat(), in: []ruleIn{in(f32, 2), in(f32, 2)}, err: invalid},
	})
}
