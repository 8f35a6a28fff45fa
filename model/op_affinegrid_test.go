package model

import "testing"

func TestAffineGridRule(t *testing.T) {
	ag := func(attrs ...Attr) *Node { return nd("AffineGrid", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "2-D", opset: 20, node: ag(), in: []ruleIn{in(f32, 2, 2, 3), iv(2, 3, 5, 6)}, want: []sh{{f32, d(2, 5, 6, 2)}}},
		{name: "3-D", node: ag(aI("align_corners", 1)), in: []ruleIn{in(f32, 2, 3, 4), iv(2, 3, 4, 5, 6)}, want: []sh{{f32, d(2, 4, 5, 6, 3)}}},
		{name: "unknown size", node: ag(), in: []ruleIn{in(f32, 2, 2, 3), in(i64, 4)}, want: []sh{{f32, d(2, -1, -1, 2)}}},
		{name: "unknown ranks", node: ag(), in: []ruleIn{unr(f32), unr(i64)}, want: []sh{{f32, nil}}},
		{name: "theta for 3-D, size 2-D", node: ag(), in: []ruleIn{in(f32, 2, 3, 4), iv(2, 3, 5, 6)}, err: invalid},
		{name: "batch", node: ag(), in: []ruleIn{in(f32, 1, 2, 3), iv(2, 3, 5, 6)}, runtime: true, err: mismatch},
		{name: "theta shape", node: ag(), in: []ruleIn{in(f32, 2, 2, 4), iv(2, 3, 5, 6)}, err: invalid},
		{name: "size length", node: ag(), in: []ruleIn{in(f32, 2, 2, 3), iv(2, 3, 5)}, err: invalid},
		{name: "before opset 20", opset: 19, node: ag(), in: []ruleIn{in(f32, 2, 2, 3), iv(2, 3, 5, 6)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "affinegrid", node: ag(), in: []ruleIn{in(f32, 2, 2, 3), iv(2, 3, 5, 6)}})
}
