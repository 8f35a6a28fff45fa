package model

import "testing"

func TestTriluRule(t *testing.T) {
	tri := func(attrs ...Attr) *Node { return nd("Trilu", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "upper", node: tri(), in: []ruleIn{in(f32, 2, 3)}, want: []sh{{f32, d(2, 3)}}},
		{name: "lower with k", node: tri(aI("upper", 0)), in: []ruleIn{in(f32, 4, -1, 3), is(i64, 1)}, want: []sh{{f32, d(4, -1, 3)}}},
		{name: "k of shape [1]", node: tri(), in: []ruleIn{in(f32, 2, 2), iv(1)}, want: []sh{{f32, d(2, 2)}}},
		{name: "unknown rank", node: tri(), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}}},
		{name: "rank 1", node: tri(), in: []ruleIn{in(f32, 3)}, err: invalid},
		{name: "rank 1 at run time", runtime: true, node: tri(), in: []ruleIn{in(f32, 3)}, err: mismatch},
		{name: "k not scalar", node: tri(), in: []ruleIn{in(f32, 2, 2), iv(1, 2)}, err: invalid},
		{name: "before opset 14", opset: 13, node: tri(), in: []ruleIn{in(f32, 2, 2)}, err: unsupp},
	})
}

func TestTriluRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "trilu", node: nd("Trilu", nil, nil), in: []ruleIn{in(f32, 2, 3), is(i64, 1)}})
}
