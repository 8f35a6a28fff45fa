package model

import "testing"

func TestReverseSequenceRule(t *testing.T) {
	rs := func(attrs ...Attr) *Node { return nd("ReverseSequence", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "defaults", opset: 10, node: rs(), in: []ruleIn{in(f32, 4, 3), in(i64, 3)}, want: []sh{{f32, d(4, 3)}}},
		{name: "batch first", node: rs(aI("batch_axis", 0), aI("time_axis", 1)), in: []ruleIn{in(f32, 4, 3, 2), in(i64, 4)}, want: []sh{{f32, d(4, 3, 2)}}},
		{name: "unknown rank", node: rs(), in: []ruleIn{unr(f32), in(i64, 4)}, want: []sh{{f32, nil}}},
		{name: "lens differ", runtime: true, node: rs(), in: []ruleIn{in(f32, 4, 3), in(i64, 4)}, err: mismatch},
		{name: "rank 1", node: rs(), in: []ruleIn{in(f32, 4), in(i64, 4)}, err: invalid},
		{name: "lens rank 2", node: rs(), in: []ruleIn{in(f32, 4, 3), in(i64, 3, 1)}, err: invalid},
		{name: "lens int32", node: rs(), in: []ruleIn{in(f32, 4, 3), in(i32, 3)}, err: invalid},
		{name: "same axes", node: rs(aI("batch_axis", 0)), in: []ruleIn{in(f32, 4, 3), in(i64, 4)}, err: invalid},
		{name: "axis 2", node: rs(aI("time_axis", 2)), in: []ruleIn{in(f32, 4, 3, 2), in(i64, 3)}, err: invalid},
		{name: "before opset 10", opset: 9, node: rs(), in: []ruleIn{in(f32, 4, 3), in(i64, 3)}, err: unsupp},
	})
}

func TestReverseSequenceRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "reversesequence", node: nd("ReverseSequence", nil, nil), in: []ruleIn{in(f32, 4, 3), in(i64, 3)}})
}
