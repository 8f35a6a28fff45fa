package model

import "testing"

func TestOneHotRule(t *testing.T) {
	oh := func(attrs ...Attr) *Node { return nd("OneHot", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "default axis", opset: 11, node: oh(), in: []ruleIn{in(i64, 3), fs(f32, 12), in(i32, 2)}, want: []sh{{i32, d(3, 12)}}},
		{name: "axis 1", node: oh(aI("axis", 1)), in: []ruleIn{in(f32, 2, 3), is(i64, 10), in(f32, 2)}, want: []sh{{f32, d(2, 10, 3)}}},
		{name: "negative axis", opset: 9, node: oh(aI("axis", -2)), in: []ruleIn{in(f32, 2, 2), fs(f32, 10.7), in(f32, 2)}, want: []sh{{f32, d(2, 10, 2)}}},
		{name: "axis 0", node: oh(aI("axis", 0)), in: []ruleIn{in(i64, 4), is(i64, 3), in(i64, 2)}, want: []sh{{i64, d(3, 4)}}},
		{name: "unknown depth", node: oh(), in: []ruleIn{in(i64, 4), in(i64), in(f32, 2)}, want: []sh{{f32, d(4, -1)}}},
		{name: "unknown indices rank", node: oh(), in: []ruleIn{unr(i64), is(i64, 3), in(f32, 2)}, want: []sh{{f32, nil}}},
		{name: "zero depth", runtime: true, node: oh(), in: []ruleIn{in(i64, 4), is(i64, 0), in(f32, 2)}, err: mismatch},
		{name: "NaN depth", runtime: true, node: oh(), in: []ruleIn{in(i64, 4), {dt: f32, dims: []int{}, floats: []float64{nan()}}, in(f32, 2)}, err: mismatch},
		{name: "depth vector", node: oh(), in: []ruleIn{in(i64, 4), in(i64, 2), in(f32, 2)}, err: invalid},
		{name: "three values", node: oh(), in: []ruleIn{in(i64, 4), is(i64, 3), in(f32, 3)}, err: invalid},
		{name: "axis out of range", node: oh(aI("axis", 2)), in: []ruleIn{in(i64, 4), is(i64, 3), in(f32, 2)}, err: invalid},
		{name: "before opset 9", opset: 8, node: oh(), in: []ruleIn{in(i64, 4), is(i64, 3), in(f32, 2)}, err: unsupp},
	})
}

func TestOneHotRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "onehot", node: nd("OneHot", nil, nil), in: []ruleIn{in(i64, 2, 3), is(i64, 10), in(f32, 2)}})
}
