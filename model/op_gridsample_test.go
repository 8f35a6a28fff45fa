package model

import "testing"

func TestGridSampleRule(t *testing.T) {
	gs := func(attrs ...Attr) *Node { return nd("GridSample", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "2-D", opset: 16, node: gs(), in: []ruleIn{in(f32, 2, 3, 8, 8), in(f32, 2, 4, 5, 2)}, want: []sh{{f32, d(2, 3, 4, 5)}}},
		{name: "3-D", opset: 20, node: gs(aS("mode", "cubic")), in: []ruleIn{in(f32, 1, 2, 4, 4, 4), in(f32, 1, 2, 3, 5, 3)}, want: []sh{{f32, d(1, 2, 2, 3, 5)}}},
		{name: "partial", opset: 20, node: gs(), in: []ruleIn{in(f32, -1, 3, 8, 8), in(f32, 2, -1, 5, 2)}, want: []sh{{f32, d(2, 3, -1, 5)}}},
		{name: "grid only", opset: 20, node: gs(), in: []ruleIn{unr(f32), in(f32, 2, 4, 5, 2)}, want: []sh{{f32, d(2, -1, 4, 5)}}},
		{name: "unknown ranks", opset: 20, node: gs(), in: []ruleIn{unr(f32), unr(f32)}, want: []sh{{f32, nil}}},
		{name: "unknown ranks opset 16", opset: 16, node: gs(), in: []ruleIn{unr(f32), unr(f32)}, want: []sh{{f32, d(-1, -1, -1, -1)}}},
		{name: "3-D at opset 16", opset: 16, node: gs(), in: []ruleIn{in(f32, 1, 2, 4, 4, 4), in(f32, 1, 2, 3, 5, 3)}, err: invalid},
		{name: "opset 16 mode names", opset: 16, node: gs(aS("mode", "bicubic")), in: []ruleIn{in(f32, 1, 1, 4, 4), in(f32, 1, 2, 2, 2)}, want: []sh{{f32, d(1, 1, 2, 2)}}},
		{name: "opset 20 old name", opset: 20, node: gs(aS("mode", "bilinear")), in: []ruleIn{in(f32, 1, 1, 4, 4), in(f32, 1, 2, 2, 2)}, err: invalid},
		{name: "bad padding", node: gs(aS("padding_mode", "wrap")), in: []ruleIn{in(f32, 1, 1, 4, 4), in(f32, 1, 2, 2, 2)}, err: invalid},
		{name: "grid last dim", node: gs(), in: []ruleIn{in(f32, 1, 1, 4, 4), in(f32, 1, 2, 2, 3)}, runtime: true, err: mismatch},
		{name: "batch", node: gs(), in: []ruleIn{in(f32, 2, 1, 4, 4), in(f32, 1, 2, 2, 2)}, runtime: true, err: mismatch},
		{name: "rank mismatch", node: gs(), in: []ruleIn{in(f32, 1, 1, 4), in(f32, 1, 2, 2, 2)}, err: invalid},
		{name: "before opset 16", opset: 15, node: gs(), in: []ruleIn{in(f32, 1, 1, 4, 4), in(f32, 1, 2, 2, 2)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "gridsample", node: gs(), in: []ruleIn{in(f32, 2, 3, 8, 8), in(f32, 2, 4, 5, 2)}})
}
