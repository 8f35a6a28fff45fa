package model

import "testing"

func TestSqueezeRule(t *testing.T) {
	sq := func(attrs ...Attr) *Node { return nd("Squeeze", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "attr axes", opset: 11, node: sq(aIs("axes", -1)), in: []ruleIn{in(f32, 1, 3, 1)}, want: []sh{{f32, d(1, 3)}}},
		{name: "attr axes opset 1", opset: 1, node: sq(aIs("axes", 0)), in: []ruleIn{in(f32, 1, 3)}, want: []sh{{f32, d(3)}}},
		{name: "attr empty squeezes all", opset: 11, node: sq(aIs("axes")), in: []ruleIn{in(f32, 1, 3, 1)}, want: []sh{{f32, d(3)}}},
		{name: "input axes", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3, 1), iv(0, 2)}, want: []sh{{f32, d(3)}}},
		{name: "no axes", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3, 1)}, want: []sh{{f32, d(3)}}},
		{name: "empty axes input", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3, 1), iv()}, want: []sh{{f32, d(3)}}},
		{name: "to scalar", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 1)}, want: []sh{{f32, d()}}},
		{name: "unknown dim on axis", opset: 13, node: sq(), in: []ruleIn{in(f32, -1, 3), iv(0)}, want: []sh{{f32, d(3)}}},
		{name: "no axes unknown dim", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, -1)}, want: []sh{{f32, nil}}},
		{name: "dynamic axes", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3, 1), in(i64, 2)}, want: []sh{{f32, d(-1)}}},
		{name: "dynamic axes unknown length", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3, 1), in(i64, -1)}, want: []sh{{f32, nil}}},
		{name: "unknown rank", opset: 13, node: sq(), in: []ruleIn{unr(f32), iv(0)}, want: []sh{{f32, nil}}},
		{name: "not one", opset: 13, node: sq(), in: []ruleIn{in(f32, 2, 3), iv(0)}, err: invalid},
		{name: "not one at run time", runtime: true, opset: 13, node: sq(), in: []ruleIn{in(f32, 2, 3), iv(0)}, err: mismatch},
		{name: "repeated axis", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3), iv(0, -2)}, err: invalid},
		{name: "axis out of range", opset: 11, node: sq(aIs("axes", 2)), in: []ruleIn{in(f32, 1, 3)}, err: invalid},
		{name: "axes input of rank 2", opset: 13, node: sq(), in: []ruleIn{in(f32, 1, 3), in(i64, 1, 1)}, err: invalid},
		{name: "axes input before 13", opset: 11, node: sq(), in: []ruleIn{in(f32, 1, 3), iv(0)}, err: invalid},
	})
}

func TestUnsqueezeRule(t *testing.T) {
	unsq := func(attrs ...Attr) *Node { return nd("Unsqueeze", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "attr axes", opset: 11, node: unsq(aIs("axes", 0, -1)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{f32, d(1, 2, 3, 4, 1)}}},
		{name: "input axes", opset: 13, node: unsq(), in: []ruleIn{in(f32, 2, 3, 4), iv(1)}, want: []sh{{f32, d(2, 1, 3, 4)}}},
		{name: "scalar", opset: 13, node: unsq(), in: []ruleIn{in(i64), iv(0)}, want: []sh{{i64, d(1)}}},
		{name: "unknown dims kept", opset: 13, node: unsq(), in: []ruleIn{in(f32, -1, 4), iv(2, 0)}, want: []sh{{f32, d(1, -1, 1, 4)}}},
		{name: "dynamic axes", opset: 13, node: unsq(), in: []ruleIn{in(f32, 2, 3, 4), in(i64, 2)}, want: []sh{{f32, d(-1, -1, -1, -1, -1)}}},
		{name: "dynamic axes unknown length", opset: 13, node: unsq(), in: []ruleIn{in(f32, 2), in(i64, -1)}, want: []sh{{f32, nil}}},
		{name: "unknown rank", opset: 13, node: unsq(), in: []ruleIn{unr(f32), iv(0)}, want: []sh{{f32, nil}}},
		{name: "repeated", opset: 13, node: unsq(), in: []ruleIn{in(f32, 2), iv(1, 1)}, err: invalid},
		{name: "out of range", opset: 13, node: unsq(), in: []ruleIn{in(f32, 2), iv(2)}, err: invalid},
		{name: "out of range at run time", runtime: true, opset: 13, node: unsq(), in: []ruleIn{in(f32, 2), iv(-3)}, err: mismatch},
		{name: "rank too large", opset: 11, node: unsq(aIs("axes", make([]int64, 300)...)), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "no axes attribute", opset: 11, node: unsq(), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "no axes input", opset: 13, node: unsq(), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "axes of the wrong type", opset: 11, node: unsq(aI("axes", 0)), in: []ruleIn{in(f32, 2)}, err: invalid},
	})
}

func TestSqueezeRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "squeeze", opset: 13, node: nd("Squeeze", nil, nil), in: []ruleIn{in(f32, 1, 3, 1, 5), iv(0, -2)}})
	wantNoAllocs(t, ruleCase{name: "unsqueeze", opset: 13, node: nd("Unsqueeze", nil, nil), in: []ruleIn{in(f32, 3, 5), iv(0, -1)}})
}
