package model

import "testing"

func TestTransposeRule(t *testing.T) {
	tr := func(attrs ...Attr) *Node { return nd("Transpose", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "perm", node: tr(aIs("perm", 1, 2, 0)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{f32, d(3, 4, 2)}}},
		{name: "default reverses", node: tr(), in: []ruleIn{in(f32, 2, -1, 4)}, want: []sh{{f32, d(4, -1, 2)}}},
		{name: "scalar", node: tr(), in: []ruleIn{in(f32)}, want: []sh{{f32, d()}}},
		{name: "unknown rank with perm", node: tr(aIs("perm", 1, 0)), in: []ruleIn{unr(f32)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "unknown rank", node: tr(), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}}},
		{name: "opset 1", opset: 1, node: tr(aIs("perm", 1, 0)), in: []ruleIn{in(i64, 2, 3)}, want: []sh{{i64, d(3, 2)}}},
		{name: "repeated", node: tr(aIs("perm", 0, 0, 1)), in: []ruleIn{in(f32, 2, 3, 4)}, err: invalid},
		{name: "out of range", node: tr(aIs("perm", 0, 2)), in: []ruleIn{in(f32, 2, 3)}, err: invalid},
		{name: "negative", node: tr(aIs("perm", -1, 0)), in: []ruleIn{in(f32, 2, 3)}, err: invalid},
		{name: "short", node: tr(aIs("perm", 1, 0)), in: []ruleIn{in(f32, 2, 3, 4)}, err: invalid},
		{name: "short at run time", runtime: true, node: tr(aIs("perm", 1, 0)), in: []ruleIn{in(f32, 2, 3, 4)}, err: mismatch},
		{name: "perm of the wrong type", node: tr(aI("perm", 1)), in: []ruleIn{in(f32, 2)}, err: invalid},
	})
}

func TestTransposeRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "transpose", node: nd("Transpose", nil, nil, aIs("perm", 0, 2, 3, 1)), in: []ruleIn{in(f32, 2, 3, 4, 5)}})
}
