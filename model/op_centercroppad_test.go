package model

import "testing"

func TestCenterCropPadRule(t *testing.T) {
	ccp := func(attrs ...Attr) *Node { return nd("CenterCropPad", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "all axes", opset: 18, node: ccp(), in: []ruleIn{in(f32, 20, 10, 3), iv(10, 12, 3)}, want: []sh{{f32, d(10, 12, 3)}}},
		{name: "axes", node: ccp(aIs("axes", -3, 1)), in: []ruleIn{in(f32, 20, 8, 3), iv(10, 9)}, want: []sh{{f32, d(10, 9, 3)}}},
		{name: "unknown shape", node: ccp(aIs("axes", 0, 1)), in: []ruleIn{in(f32, 20, 8, 3), in(i64, 2)}, want: []sh{{f32, d(-1, -1, 3)}}},
		{name: "unknown rank", node: ccp(), in: []ruleIn{unr(f32), iv(1, 2)}, want: []sh{{f32, nil}}},
		{name: "int32 shape", node: ccp(), in: []ruleIn{in(f32, 4), {dt: i32, dims: []int{1}, ints: []int64{2}}}, want: []sh{{f32, d(2)}}},
		{name: "too few sizes", node: ccp(), in: []ruleIn{in(f32, 20, 8, 3), iv(10, 9)}, runtime: true, err: mismatch},
		{name: "negative size", node: ccp(), in: []ruleIn{in(f32, 4), iv(-1)}, err: invalid},
		{name: "repeated axis", node: ccp(aIs("axes", 0, 0)), in: []ruleIn{in(f32, 4, 4), iv(1, 1)}, err: invalid},
		{name: "float shape", node: ccp(), in: []ruleIn{in(f32, 4), in(f32, 1)}, err: invalid},
		{name: "before opset 18", opset: 17, node: ccp(), in: []ruleIn{in(f32, 4), iv(2)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "centercroppad", node: ccp(aIs("axes", 0, 1)), in: []ruleIn{in(f32, 20, 8, 3), iv(10, 9)}})
}
