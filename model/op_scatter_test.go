package model

import "testing"

func TestScatterRule(t *testing.T) {
	se := func(attrs ...Attr) *Node { return nd("ScatterElements", nil, nil, attrs...) }
	sn := func(attrs ...Attr) *Node { return nd("ScatterND", nil, nil, attrs...) }
	sc := func(attrs ...Attr) *Node { return nd("Scatter", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "elements", opset: 18, node: se(aI("axis", 1)), in: []ruleIn{in(f32, 3, 3), in(i64, 2, 2), in(f32, 2, 2)}, want: []sh{{f32, d(3, 3)}}},
		{name: "elements index longer on axis", opset: 11, node: se(), in: []ruleIn{in(f32, 3, 3), in(i32, 5, 2), in(f32, 5, 2)}, want: []sh{{f32, d(3, 3)}}},
		{name: "elements reduction max", opset: 18, node: se(aS("reduction", "max")), in: []ruleIn{in(f32, 3), in(i64, 2), in(f32, 2)}, want: []sh{{f32, d(3)}}},
		{name: "elements partial", node: se(), in: []ruleIn{in(f32, -1, 3), unr(i64), in(f32, 2, 2)}, want: []sh{{f32, d(-1, 3)}}},
		{name: "elements unknown data", node: se(), in: []ruleIn{unr(f32), in(i64, 2), in(f32, 2)}, want: []sh{{f32, nil}}},
		{name: "elements rank differs", node: se(), in: []ruleIn{in(f32, 3, 3), in(i64, 2), in(f32, 2)}, err: invalid},
		{name: "elements updates differ", node: se(), in: []ruleIn{in(f32, 3, 3), in(i64, 2, 2), in(f32, 2, 1)}, err: invalid},
		{name: "elements indices exceed data", runtime: true, node: se(), in: []ruleIn{in(f32, 3, 3), in(i64, 2, 4), in(f32, 2, 4)}, err: mismatch},
		{name: "elements axis out of range", node: se(aI("axis", 2)), in: []ruleIn{in(f32, 3, 3), in(i64, 2, 2), in(f32, 2, 2)}, err: invalid},
		{name: "elements types differ", node: se(), in: []ruleIn{in(f32, 3), in(i64, 2), in(i64, 2)}, err: invalid},
		{name: "elements max before opset 18", opset: 17, node: se(aS("reduction", "max")), in: []ruleIn{in(f32, 3), in(i64, 2), in(f32, 2)}, err: invalid},
		{name: "elements unknown reduction", opset: 18, node: se(aS("reduction", "sum")), in: []ruleIn{in(f32, 3), in(i64, 2), in(f32, 2)}, err: invalid},
		{name: "elements reduction ignored before opset 16", opset: 13, node: se(aS("reduction", "sum")), in: []ruleIn{in(f32, 3), in(i64, 2), in(f32, 2)}, want: []sh{{f32, d(3)}}},
		{name: "elements before opset 11", opset: 10, node: se(), in: []ruleIn{in(f32, 3), in(i64, 2), in(f32, 2)}, err: unsupp},
		{name: "scatter", opset: 9, node: sc(aI("axis", -1)), in: []ruleIn{in(f32, 2, 5), in(i64, 2, 2), in(f32, 2, 2)}, want: []sh{{f32, d(2, 5)}}},
		{name: "scatter before opset 9", opset: 8, node: sc(), in: []ruleIn{in(f32, 3), in(i64, 2), in(f32, 2)}, err: unsupp},
		{name: "nd slices", opset: 11, node: sn(), in: []ruleIn{in(f32, 4, 4, 4), in(i64, 2, 1), in(f32, 2, 4, 4)}, want: []sh{{f32, d(4, 4, 4)}}},
		{name: "nd elements", opset: 18, node: sn(aS("reduction", "min")), in: []ruleIn{in(f32, 2, 2), in(i64, 2, 2), in(f32, 2)}, want: []sh{{f32, d(2, 2)}}},
		{name: "nd unknown k", node: sn(), in: []ruleIn{in(f32, 2, 2), in(i64, 2, -1), in(f32, 2)}, want: []sh{{f32, d(2, 2)}}},
		{name: "nd k too large", node: sn(), in: []ruleIn{in(f32, 2, 2), in(i64, 1, 3), in(f32, 1)}, err: invalid},
		{name: "nd scalar indices", node: sn(), in: []ruleIn{in(f32, 2, 2), in(i64), in(f32, 1)}, err: invalid},
		{name: "nd updates rank", node: sn(), in: []ruleIn{in(f32, 4, 4), in(i64, 2, 1), in(f32, 2)}, err: invalid},
		{name: "nd deep indices", node: sn(), in: []ruleIn{in(f32, 4), in(i64, 2, 3, 1), in(f32, 2, 3)}, want: []sh{{f32, d(4)}}},
		{name: "nd deep indices bad updates", node: sn(), in: []ruleIn{in(f32, 4), in(i64, 2, 3, 1), in(f32, 2, 2)}, err: invalid},
		{name: "nd updates dims", runtime: true, node: sn(), in: []ruleIn{in(f32, 4, 4), in(i64, 2, 1), in(f32, 2, 3)}, err: mismatch},
	})
}

func TestScatterRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "elements", node: nd("ScatterElements", nil, nil), in: []ruleIn{in(f32, 3, 3), in(i64, 2, 2), in(f32, 2, 2)}})
	wantNoAllocs(t, ruleCase{name: "nd", node: nd("ScatterND", nil, nil), in: []ruleIn{in(f32, 4, 4), in(i64, 2, 1), in(f32, 2, 4)}})
}
