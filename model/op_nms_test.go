package model

import "testing"

func TestNonMaxSuppressionRule(t *testing.T) {
	nms := func(attrs ...Attr) *Node { return nd("NonMaxSuppression", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "all inputs", opset: 11, node: nms(), in: []ruleIn{in(f32, 1, 6, 4), in(f32, 1, 2, 6), in(i64, 1), in(f32, 1), in(f32)}, want: []sh{{i64, d(-1, 3)}}},
		{name: "two inputs", opset: 10, node: nms(aI("center_point_box", 1)), in: []ruleIn{in(f32, 2, 6, 4), in(f32, 2, 1, 6)}, want: []sh{{i64, d(-1, 3)}}},
		{name: "unknown ranks", node: nms(), in: []ruleIn{unr(f32), unr(f32)}, want: []sh{{i64, d(-1, 3)}}},
		{name: "boxes not 4", node: nms(), in: []ruleIn{in(f32, 1, 6, 5), in(f32, 1, 1, 6)}, err: invalid},
		{name: "box counts differ", node: nms(), in: []ruleIn{in(f32, 1, 6, 4), in(f32, 1, 1, 5)}, runtime: true, err: mismatch},
		{name: "threshold rank", node: nms(), in: []ruleIn{in(f32, 1, 6, 4), in(f32, 1, 1, 6), in(i64, 1), in(f32, 1, 1)}, err: invalid},
		{name: "bad center_point_box", node: nms(aI("center_point_box", 2)), in: []ruleIn{in(f32, 1, 6, 4), in(f32, 1, 1, 6)}, err: invalid},
		{name: "before opset 10", opset: 9, node: nms(), in: []ruleIn{in(f32, 1, 6, 4), in(f32, 1, 1, 6)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "nms", node: nms(), in: []ruleIn{in(f32, 1, 6, 4), in(f32, 1, 2, 6)}})
}
