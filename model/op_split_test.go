package model

import "testing"

func TestSplitRule(t *testing.T) {
	split := func(outs int, attrs ...Attr) *Node {
		n := nd("Split", nil, nil, attrs...)
		for j := range outs {
			n.Outputs = append(n.Outputs, string(rune('a'+j)))
		}
		return n
	}
	three := []sh{{f32, d(2, 2)}, {f32, d(2, 2)}, {f32, d(2, 2)}}
	runRules(t, []ruleCase{
		{name: "equal", node: split(3), in: []ruleIn{in(f32, 6, 2)}, want: three},
		{name: "equal opset 2", opset: 2, node: split(3), in: []ruleIn{in(f32, 6, 2)}, want: three},
		{name: "attr", opset: 11, node: split(2, aIs("split", 4, 2)), in: []ruleIn{in(f32, 6, 2)}, want: []sh{{f32, d(4, 2)}, {f32, d(2, 2)}}},
		{name: "attr negative axis", opset: 7, node: split(2, aI("axis", -1), aIs("split", 1, 5)), in: []ruleIn{in(f32, 2, 6)}, want: []sh{{f32, d(2, 1)}, {f32, d(2, 5)}}},
		{name: "input opset 1", opset: 1, node: split(2), in: []ruleIn{in(f32, 6), iv(1, 5)}, want: []sh{{f32, d(1)}, {f32, d(5)}}},
		{name: "input", opset: 13, node: split(2, aI("axis", 1)), in: []ruleIn{in(f32, 2, 6), iv(1, 5)}, want: []sh{{f32, d(2, 1)}, {f32, d(2, 5)}}},
		{name: "input unknown dim", opset: 13, node: split(2), in: []ruleIn{in(f32, -1, 6), iv(1, 5)}, want: []sh{{f32, d(1, 6)}, {f32, d(5, 6)}}},
		{name: "dynamic input", opset: 13, node: split(2), in: []ruleIn{in(f32, 7, 3), in(i64, 2)}, want: []sh{{f32, d(-1, 3)}, {f32, d(-1, 3)}}},
		{name: "unknown dim even", opset: 13, node: split(2), in: []ruleIn{in(f32, -1, 3)}, want: []sh{{f32, d(-1, 3)}, {f32, d(-1, 3)}}},
		{name: "unknown rank", opset: 13, node: split(2), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}, {f32, nil}}},
		{name: "num_outputs uneven", opset: 18, node: split(3, aI("num_outputs", 3)), in: []ruleIn{in(f32, 7)}, want: []sh{{f32, d(3)}, {f32, d(3)}, {f32, d(1)}}},
		{name: "num_outputs even", opset: 18, node: split(3, aI("axis", 1), aI("num_outputs", 3)), in: []ruleIn{in(f32, 2, 6)}, want: three},
		{name: "num_outputs empty last", opset: 18, node: split(3, aI("num_outputs", 3)), in: []ruleIn{in(f32, 2)}, want: []sh{{f32, d(1)}, {f32, d(1)}, {f32, d(0)}}},
		{name: "num_outputs too many", opset: 18, node: split(4, aI("num_outputs", 4)), in: []ruleIn{in(f32, 5)}, err: invalid},
		{name: "num_outputs ignored before 18", opset: 13, node: split(2, aI("num_outputs", 5)), in: []ruleIn{in(f32, 4)}, want: []sh{{f32, d(2)}, {f32, d(2)}}},
		{name: "num_outputs for other outputs", opset: 18, node: split(2, aI("num_outputs", 3)), in: []ruleIn{in(f32, 6)}, err: invalid},
		{name: "num_outputs zero", opset: 18, node: split(2, aI("num_outputs", 0)), in: []ruleIn{in(f32, 6)}, err: invalid},
		{name: "num_outputs and split", opset: 18, node: split(2, aI("num_outputs", 2)), in: []ruleIn{in(f32, 6), iv(3, 3)}, err: invalid},
		{name: "bad sum", opset: 13, node: split(2), in: []ruleIn{in(f32, 6), iv(1, 2)}, err: invalid},
		{name: "bad sum at run time", runtime: true, opset: 13, node: split(2), in: []ruleIn{in(f32, 6), iv(1, 2)}, err: mismatch},
		{name: "negative split", opset: 13, node: split(2), in: []ruleIn{in(f32, 6), iv(-1, 7)}, err: invalid},
		{name: "split length", opset: 11, node: split(2, aIs("split", 6)), in: []ruleIn{in(f32, 6)}, err: invalid},
		{name: "uneven", opset: 13, node: split(2), in: []ruleIn{in(f32, 7)}, err: invalid},
		{name: "axis out of range", opset: 13, node: split(2, aI("axis", 1)), in: []ruleIn{in(f32, 6)}, err: invalid},
		{name: "split input before 13", opset: 11, node: split(2), in: []ruleIn{in(f32, 6), iv(3, 3)}, err: invalid},
	})
}

func TestSplitRuleNoAllocs(t *testing.T) {
	n := nd("Split", nil, []string{"a", "b", "c"}, aI("axis", 1), aI("num_outputs", 3))
	wantNoAllocs(t, ruleCase{name: "num_outputs", opset: 18, node: n, in: []ruleIn{in(f32, 2, 7, 3)}})
	n = nd("Split", nil, []string{"a", "b"}, aI("axis", -1))
	wantNoAllocs(t, ruleCase{name: "input", opset: 13, node: n, in: []ruleIn{in(f32, 2, 7), iv(3, 4)}})
}
