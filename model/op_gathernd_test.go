package model

import "testing"

func TestGatherNDRule(t *testing.T) {
	g := func(attrs ...Attr) *Node { return nd("GatherND", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "elements", opset: 11, node: g(), in: []ruleIn{in(f32, 2, 2), in(i64, 2, 2)}, want: []sh{{f32, d(2)}}},
		{name: "slices", node: g(), in: []ruleIn{in(i32, 2, 2), in(i64, 2, 1)}, want: []sh{{i32, d(2, 2)}}},
		{name: "batch dims", opset: 13, node: g(aI("batch_dims", 1)), in: []ruleIn{in(i32, 2, 2, 2), in(i64, 2, 1)}, want: []sh{{i32, d(2, 2)}}},
		{name: "batch dim from data", node: g(aI("batch_dims", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(i64, -1, 5, 2)}, want: []sh{{f32, d(2, 5)}}},
		{name: "whole data", node: g(), in: []ruleIn{in(f32, 2, 3), in(i64, 4, 0)}, want: []sh{{f32, d(4, 2, 3)}}},
		{name: "unknown k", node: g(), in: []ruleIn{in(f32, 2, 3), in(i64, 4, -1)}, want: []sh{{f32, nil}}},
		{name: "unknown rank", node: g(), in: []ruleIn{unr(f32), in(i64, 4, 1)}, want: []sh{{f32, nil}}},
		{name: "k too large", node: g(), in: []ruleIn{in(f32, 2, 3), in(i64, 4, 3)}, err: invalid},
		{name: "k too large past batch", node: g(aI("batch_dims", 1)), in: []ruleIn{in(f32, 2, 3), in(i64, 2, 2)}, err: invalid},
		{name: "batch dims differ", runtime: true, node: g(aI("batch_dims", 1)), in: []ruleIn{in(f32, 2, 3), in(i64, 3, 1)}, err: mismatch},
		{name: "batch dims too many", node: g(aI("batch_dims", 2)), in: []ruleIn{in(f32, 2, 3), in(i64, 2, 1)}, err: invalid},
		{name: "negative batch dims", node: g(aI("batch_dims", -1)), in: []ruleIn{in(f32, 2, 3), in(i64, 2, 1)}, err: invalid},
		{name: "scalar indices", node: g(), in: []ruleIn{in(f32, 2, 3), in(i64)}, err: invalid},
		{name: "int32 indices", node: g(), in: []ruleIn{in(f32, 2, 3), in(i32, 2, 1)}, err: invalid},
		{name: "before opset 11", opset: 10, node: g(), in: []ruleIn{in(f32, 2), in(i64, 1, 1)}, err: unsupp},
	})
}

func TestGatherNDRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "gathernd", node: nd("GatherND", nil, nil, aI("batch_dims", 1)), in: []ruleIn{in(f32, 2, 3, 4), in(i64, 2, 5, 1)}})
}
