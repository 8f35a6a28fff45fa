package model

import "testing"

func TestNonZeroRule(t *testing.T) {
	nz := nd("NonZero", nil, nil)
	runRules(t, []ruleCase{
		{name: "known rank", node: nz, in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{i64, d(3, -1)}}},
		{name: "scalar", opset: 9, node: nz, in: []ruleIn{in(f32)}, want: []sh{{i64, d(0, -1)}}},
		{name: "unknown rank", node: nz, in: []ruleIn{unr(f32)}, want: []sh{{i64, d(-1, -1)}}},
		{name: "before opset 9", opset: 8, node: nz, in: []ruleIn{in(f32, 2)}, err: unsupp},
	})
}

func TestNonZeroRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "nonzero", node: nd("NonZero", nil, nil), in: []ruleIn{in(f32, 2, 3)}})
}
