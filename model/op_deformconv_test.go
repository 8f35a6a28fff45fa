package model

import "testing"

func TestDeformConvRule(t *testing.T) {
	dc := func(attrs ...Attr) *Node { return nd("DeformConv", nil, nil, attrs...) }
	x, w := in(f32, 1, 4, 5, 5), in(f32, 6, 2, 3, 3)
	runRules(t, []ruleCase{
		{name: "plain", opset: 19, node: dc(), in: []ruleIn{in(f32, 1, 1, 3, 3), in(f32, 1, 1, 2, 2), in(f32, 1, 8, 2, 2)}, want: []sh{{f32, d(1, 1, 2, 2)}}},
		{name: "groups, bias and mask", node: dc(aI("group", 2), aI("offset_group", 2), aIs("pads", 1, 1, 1, 1)),
			in: []ruleIn{x, w, in(f32, 1, 36, 5, 5), in(f32, 6), in(f32, 1, 18, 5, 5)}, want: []sh{{f32, d(1, 6, 5, 5)}}},
		{name: "partial", node: dc(), in: []ruleIn{in(f32, -1, 2, 5, -1), in(f32, 3, 2, 3, 3), unr(f32)}, want: []sh{{f32, d(-1, 3, 3, -1)}}},
		{name: "offset channels", node: dc(), in: []ruleIn{in(f32, 1, 1, 3, 3), in(f32, 1, 1, 2, 2), in(f32, 1, 4, 2, 2)}, runtime: true, err: mismatch},
		{name: "offset places", node: dc(), in: []ruleIn{in(f32, 1, 1, 3, 3), in(f32, 1, 1, 2, 2), in(f32, 1, 8, 3, 3)}, runtime: true, err: mismatch},
		{name: "mask channels", node: dc(), in: []ruleIn{in(f32, 1, 1, 3, 3), in(f32, 1, 1, 2, 2), in(f32, 1, 8, 2, 2), absent, in(f32, 1, 8, 2, 2)}, runtime: true, err: mismatch},
		{name: "offset_group", node: dc(aI("offset_group", 3)), in: []ruleIn{x, in(f32, 6, 4, 3, 3), in(f32, 1, 54, 3, 3)}, runtime: true, err: mismatch},
		{name: "bad offset_group", node: dc(aI("offset_group", 0)), in: []ruleIn{x, w, in(f32, 1, 18, 3, 3)}, err: invalid},
		{name: "group channels", node: dc(), in: []ruleIn{x, w, in(f32, 1, 18, 3, 3)}, err: invalid},
		{name: "before opset 19", opset: 18, node: dc(), in: []ruleIn{x, w, in(f32, 1, 18, 3, 3)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "deformconv", node: dc(), in: []ruleIn{in(f32, 1, 1, 3, 3), in(f32, 1, 1, 2, 2), in(f32, 1, 8, 2, 2)}})
}
