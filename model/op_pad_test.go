package model

import "testing"

func TestPadRule(t *testing.T) {
	pad := func(attrs ...Attr) *Node { return nd("Pad", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "pads input", node: pad(), in: []ruleIn{in(f32, 1, 3, 4, 4), iv(0, 0, 1, 2, 0, 0, 3, 4)}, want: []sh{{f32, d(1, 3, 8, 10)}}},
		{name: "constant value", node: pad(), in: []ruleIn{in(f32, 4), iv(1, 1), fs(f32, 2)}, want: []sh{{f32, d(6)}}},
		{name: "negative pads crop", node: pad(), in: []ruleIn{in(f32, 4, 5), iv(-1, 1, 0, -2)}, want: []sh{{f32, d(3, 4)}}},
		{name: "axes", opset: 18, node: pad(), in: []ruleIn{in(f32, 1, 3, 4, 4), iv(1, -1), absent, iv(-1)}, want: []sh{{f32, d(1, 3, 4, 4)}}},
		{name: "axes two", opset: 18, node: pad(aS("mode", "reflect")), in: []ruleIn{in(f32, 2, 3, 4), iv(1, 2, 0, 1), absent, iv(0, 2)}, want: []sh{{f32, d(3, 3, 7)}}},
		{name: "attr", opset: 10, node: pad(aIs("pads", 1, 1)), in: []ruleIn{in(f32, 4)}, want: []sh{{f32, d(6)}}},
		{name: "attr edge", opset: 2, node: pad(aIs("pads", 0, 1, 2, 0), aS("mode", "edge")), in: []ruleIn{in(f32, 4, 4)}, want: []sh{{f32, d(6, 5)}}},
		{name: "paddings opset 1", opset: 1, node: pad(aIs("paddings", 1, 2)), in: []ruleIn{in(f32, 4)}, want: []sh{{f32, d(7)}}},
		{name: "wrap opset 19", opset: 19, node: pad(aS("mode", "wrap")), in: []ruleIn{in(f32, 4), iv(5, 5)}, want: []sh{{f32, d(14)}}},
		{name: "unknown dim", node: pad(), in: []ruleIn{in(f32, -1, 4), iv(1, 1, 1, 1)}, want: []sh{{f32, d(-1, 6)}}},
		{name: "dynamic pads", node: pad(), in: []ruleIn{in(f32, 4, 2), in(i64, 4)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "dynamic axes", opset: 18, node: pad(), in: []ruleIn{in(f32, 4, 2), iv(1, 1), absent, in(i64, 1)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "unknown rank", node: pad(), in: []ruleIn{unr(f32), iv(1, 1)}, want: []sh{{f32, nil}}},
		{name: "negative result", node: pad(), in: []ruleIn{in(f32, 4), iv(-3, -3)}, err: invalid},
		{name: "negative result at run time", runtime: true, node: pad(), in: []ruleIn{in(f32, 4), iv(-3, -3)}, err: mismatch},
		{name: "huge pads", node: pad(), in: []ruleIn{in(f32, 4), iv(-1<<63, 1<<63-1)}, err: invalid},
		{name: "pads length", node: pad(), in: []ruleIn{in(f32, 4, 4), iv(1, 1)}, err: invalid},
		{name: "repeated axis", opset: 18, node: pad(), in: []ruleIn{in(f32, 4, 4), iv(1, 1, 1, 1), absent, iv(0, -2)}, err: invalid},
		{name: "axis out of range", opset: 18, node: pad(), in: []ruleIn{in(f32, 4), iv(1, 1), absent, iv(1)}, err: invalid},
		{name: "reflect empty dim", runtime: true, node: pad(aS("mode", "reflect")), in: []ruleIn{in(f32, 0, 2), iv(1, 0, 1, 0)}, err: mismatch},
		{name: "constant empty dim", node: pad(), in: []ruleIn{in(f32, 0, 2), iv(1, 0, 1, 0)}, want: []sh{{f32, d(2, 2)}}},
		{name: "pads of rank 2", node: pad(), in: []ruleIn{in(f32, 4), in(i64, 1, 2)}, err: invalid},
		{name: "no pads attribute", opset: 10, node: pad(), in: []ruleIn{in(f32, 4)}, err: invalid},
		{name: "no pads input", opset: 11, node: pad(), in: []ruleIn{in(f32, 4)}, err: invalid},
		{name: "axes before 18", opset: 13, node: pad(), in: []ruleIn{in(f32, 4), iv(1, 1), absent, iv(0)}, err: invalid},
		{name: "wrap before 19", opset: 18, node: pad(aS("mode", "wrap")), in: []ruleIn{in(f32, 4), iv(1, 1)}, err: invalid},
		{name: "unknown mode", node: pad(aS("mode", "mirror")), in: []ruleIn{in(f32, 4), iv(1, 1)}, err: unsupp},
		{name: "mode of the wrong type", node: pad(aI("mode", 1)), in: []ruleIn{in(f32, 4), iv(1, 1)}, err: invalid},
	})
}

func TestPadRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "pad", opset: 18, node: nd("Pad", nil, nil), in: []ruleIn{in(f32, 1, 3, 4, 4), iv(1, 2, -1, 3), absent, iv(-1, 1)}})
}
