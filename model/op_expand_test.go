package model

import "testing"

func TestExpandRule(t *testing.T) {
	ex := nd("Expand", nil, nil)
	runRules(t, []ruleCase{
		{name: "broadcast", node: ex, in: []ruleIn{in(f32, 3, 1), iv(2, 1, 4)}, want: []sh{{f32, d(2, 3, 4)}}},
		{name: "shape shorter", node: ex, in: []ruleIn{in(f32, 2, 3, 1), iv(5)}, want: []sh{{f32, d(2, 3, 5)}}},
		{name: "zero dim", node: ex, in: []ruleIn{in(f32, 1, 3), iv(0, 1)}, want: []sh{{f32, d(0, 3)}}},
		{name: "unknown dim kept by 1", node: ex, in: []ruleIn{in(f32, -1, 3), iv(1, 1)}, want: []sh{{f32, d(-1, 3)}}},
		{name: "unknown dim set", node: ex, in: []ruleIn{in(f32, -1), iv(4)}, want: []sh{{f32, d(4)}}},
		{name: "dynamic shape", node: ex, in: []ruleIn{in(f32, 3, 1), in(i64, 3)}, want: []sh{{f32, d(-1, -1, -1)}}},
		{name: "dynamic shorter shape", node: ex, in: []ruleIn{in(f32, 3, 1), in(i64, 1)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "unknown rank", node: ex, in: []ruleIn{unr(f32), iv(2)}, want: []sh{{f32, nil}}},
		{name: "opset 8", opset: 8, node: ex, in: []ruleIn{in(f32, 1), iv(3)}, want: []sh{{f32, d(3)}}},
		{name: "before opset 8", opset: 7, node: ex, in: []ruleIn{in(f32, 1), iv(3)}, err: unsupp},
		{name: "no broadcast", node: ex, in: []ruleIn{in(f32, 3), iv(4)}, err: invalid},
		{name: "no broadcast at run time", runtime: true, node: ex, in: []ruleIn{in(f32, 3), iv(4)}, err: mismatch},
		{name: "negative dim", node: ex, in: []ruleIn{in(f32, 3), iv(-2)}, err: invalid},
		{name: "shape of rank 2", node: ex, in: []ruleIn{in(f32, 3), in(i64, 1, 1)}, err: invalid},
		{name: "float shape", node: ex, in: []ruleIn{in(f32, 3), in(f32, 1)}, err: invalid},
	})
}

func TestExpandRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "expand", node: nd("Expand", nil, nil), in: []ruleIn{in(f32, 3, 1), iv(2, 1, 4)}})
}
