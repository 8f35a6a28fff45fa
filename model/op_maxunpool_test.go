package model

import "testing"

func TestMaxUnpoolRule(t *testing.T) {
	mu := func(attrs ...Attr) *Node {
		return nd("MaxUnpool", nil, nil, append([]Attr{aIs("kernel_shape", 2, 2)}, attrs...)...)
	}
	s2 := aIs("strides", 2, 2)
	runRules(t, []ruleCase{
		{name: "inferred", opset: 9, node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2)}, want: []sh{{f32, d(1, 1, 4, 4)}}},
		{name: "pads", node: mu(s2, aIs("pads", 1, 0, 1, 0)), in: []ruleIn{in(f32, 1, 1, 3, 3), in(i64, 1, 1, 3, 3)}, want: []sh{{f32, d(1, 1, 4, 6)}}},
		{name: "output_shape", opset: 11, node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2), iv(1, 1, 5, 5)}, want: []sh{{f32, d(1, 1, 5, 5)}}},
		{name: "unknown output_shape", node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2), in(i64, 4)}, want: []sh{{f32, d(-1, -1, -1, -1)}}},
		{name: "partial", node: mu(s2), in: []ruleIn{unr(f32), in(i64, 1, -1, 2, 2)}, want: []sh{{f32, d(1, -1, 4, 4)}}},
		{name: "output_shape length", node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2), iv(5, 5)}, err: invalid},
		{name: "shapes differ", node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 3)}, runtime: true, err: mismatch},
		{name: "kernel rank", node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2), in(i64, 1, 1, 2)}, err: invalid},
		{name: "no kernel_shape", node: nd("MaxUnpool", nil, nil), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2)}, err: invalid},
		{name: "third input at opset 9", opset: 9, node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2), iv(1, 1, 5, 5)}, err: invalid},
		{name: "before opset 9", opset: 8, node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "maxunpool", node: mu(s2), in: []ruleIn{in(f32, 1, 1, 2, 2), in(i64, 1, 1, 2, 2)}})
}
