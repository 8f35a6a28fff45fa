package model

import "testing"

func TestCol2ImRule(t *testing.T) {
	c2i := func(attrs ...Attr) *Node { return nd("Col2Im", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "plain", opset: 18, node: c2i(), in: []ruleIn{in(f32, 1, 5, 5), iv(5, 5), iv(1, 5)}, want: []sh{{f32, d(1, 1, 5, 5)}}},
		{name: "3-D", node: c2i(), in: []ruleIn{in(f32, 1, 10, 12), iv(3, 4, 5), iv(1, 1, 5)}, want: []sh{{f32, d(1, 2, 3, 4, 5)}}},
		{name: "strides", node: c2i(aIs("strides", 2, 2)), in: []ruleIn{in(f32, 1, 9, 4), iv(5, 5), iv(3, 3)}, want: []sh{{f32, d(1, 1, 5, 5)}}},
		{name: "pads", node: c2i(aIs("pads", 0, 1, 0, 1)), in: []ruleIn{in(f32, 1, 5, 15), iv(5, 5), iv(1, 5)}, want: []sh{{f32, d(1, 1, 5, 5)}}},
		{name: "dilations", node: c2i(aIs("dilations", 1, 5)), in: []ruleIn{in(f32, 1, 4, 5), iv(6, 6), iv(2, 2)}, want: []sh{{f32, d(1, 1, 6, 6)}}},
		{name: "unknown contents", node: c2i(), in: []ruleIn{in(f32, 2, 10, 12), in(i64, 2), in(i64, 2)}, want: []sh{{f32, d(2, -1, -1, -1)}}},
		{name: "unknown rank", node: c2i(), in: []ruleIn{in(f32, 2, 10, 12), unr(i64), unr(i64)}, want: []sh{{f32, nil}}},
		{name: "wrong block count", node: c2i(), in: []ruleIn{in(f32, 1, 5, 4), iv(5, 5), iv(1, 5)}, runtime: true, err: mismatch},
		{name: "channels not a multiple", node: c2i(), in: []ruleIn{in(f32, 1, 7, 5), iv(5, 5), iv(1, 5)}, runtime: true, err: mismatch},
		{name: "lengths differ", node: c2i(), in: []ruleIn{in(f32, 1, 5, 5), iv(5, 5), iv(5)}, err: invalid},
		{name: "zero block", node: c2i(), in: []ruleIn{in(f32, 1, 5, 5), iv(5, 5), iv(0, 5)}, err: invalid},
		{name: "input rank", node: c2i(), in: []ruleIn{in(f32, 5, 5), iv(5, 5), iv(1, 5)}, err: invalid},
		{name: "kernel_shape", node: c2i(aIs("kernel_shape", 1, 5)), in: []ruleIn{in(f32, 1, 5, 5), iv(5, 5), iv(1, 5)}, err: invalid},
		{name: "before opset 18", opset: 17, node: c2i(), in: []ruleIn{in(f32, 1, 5, 5), iv(5, 5), iv(1, 5)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "col2im", node: c2i(), in: []ruleIn{in(f32, 1, 5, 5), iv(5, 5), iv(1, 5)}})
}
