package model

import "testing"

func TestSliceRule(t *testing.T) {
	sl := func(attrs ...Attr) *Node { return nd("Slice", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "axes", node: sl(), in: []ruleIn{in(f32, 10, 20), iv(2, -5), iv(8, 1<<62), iv(0, 1)}, want: []sh{{f32, d(6, 5)}}},
		{name: "negative step", node: sl(), in: []ruleIn{in(f32, 10, 20), iv(-1), iv(-1 << 63), iv(1), iv(-3)}, want: []sh{{f32, d(10, 7)}}},
		{name: "min step", node: sl(), in: []ruleIn{in(f32, 10), iv(5), iv(-1 << 63), iv(0), iv(-1 << 63)}, want: []sh{{f32, d(1)}}},
		{name: "step 2 no axes", node: sl(), in: []ruleIn{in(f32, 10), iv(1), iv(10), absent, iv(2)}, want: []sh{{f32, d(5)}}},
		{name: "empty", node: sl(), in: []ruleIn{in(f32, 10), iv(5), iv(2)}, want: []sh{{f32, d(0)}}},
		{name: "empty dim negative step", node: sl(), in: []ruleIn{in(f32, 0), iv(-1), iv(-5), iv(0), iv(-1)}, want: []sh{{f32, d(0)}}},
		{name: "int32 values", node: sl(), in: []ruleIn{in(f32, 4, 4), ruleIn{dt: i32, dims: []int{1}, ints: []int64{1}}, ruleIn{dt: i32, dims: []int{1}, ints: []int64{3}}}, want: []sh{{f32, d(2, 4)}}},
		{name: "attrs opset 9", opset: 9, node: sl(aIs("starts", 1), aIs("ends", 3), aIs("axes", 1)), in: []ruleIn{in(f32, 10, 20)}, want: []sh{{f32, d(10, 2)}}},
		{name: "attrs opset 1 no axes", opset: 1, node: sl(aIs("starts", 1, 0), aIs("ends", 3, -1)), in: []ruleIn{in(f32, 10, 20)}, want: []sh{{f32, d(2, 19)}}},
		{name: "dynamic ends known axes", node: sl(), in: []ruleIn{in(f32, 10, 20), iv(0), in(i64, 1), iv(1)}, want: []sh{{f32, d(10, -1)}}},
		{name: "dynamic axes", node: sl(), in: []ruleIn{in(f32, 10, 20), iv(0), iv(1), in(i64, 1)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "dynamic no axes", node: sl(), in: []ruleIn{in(f32, 10, 20, 30), in(i64, 2), in(i64, 2)}, want: []sh{{f32, d(-1, -1, 30)}}},
		{name: "unknown dim", node: sl(), in: []ruleIn{in(f32, -1, 20), iv(0), iv(1)}, want: []sh{{f32, d(-1, 20)}}},
		{name: "unknown rank", node: sl(), in: []ruleIn{unr(f32), iv(0), iv(1)}, want: []sh{{f32, nil}}},
		{name: "zero step", node: sl(), in: []ruleIn{in(f32, 10), iv(0), iv(1), iv(0), iv(0)}, err: invalid},
		{name: "zero step at run time", runtime: true, node: sl(), in: []ruleIn{in(f32, 10), iv(0), iv(1), iv(0), iv(0)}, err: mismatch},
		{name: "lengths differ", node: sl(), in: []ruleIn{in(f32, 10), iv(0, 1), iv(1)}, err: invalid},
		{name: "axes length", node: sl(), in: []ruleIn{in(f32, 10, 2), iv(0), iv(1), iv(0, 1)}, err: invalid},
		{name: "too many starts", node: sl(), in: []ruleIn{in(f32, 10), iv(0, 0), iv(1, 1)}, err: invalid},
		{name: "repeated axis", node: sl(), in: []ruleIn{in(f32, 10, 2), iv(0, 0), iv(1, 1), iv(0, -2)}, err: invalid},
		{name: "axis out of range", node: sl(), in: []ruleIn{in(f32, 10), iv(0), iv(1), iv(1)}, err: invalid},
		{name: "starts of rank 2", node: sl(), in: []ruleIn{in(f32, 10), in(i64, 1, 1), iv(1)}, err: invalid},
		{name: "no ends attribute", opset: 9, node: sl(aIs("starts", 1)), in: []ruleIn{in(f32, 10)}, err: invalid},
		{name: "no ends input", node: sl(), in: []ruleIn{in(f32, 10), iv(0)}, err: invalid},
		{name: "inputs before 10", opset: 9, node: sl(aIs("starts", 1), aIs("ends", 2)), in: []ruleIn{in(f32, 10), iv(0), iv(1)}, err: invalid},
	})
}

func TestSliceCount(t *testing.T) {
	cases := []struct {
		d, start, end, step, want int64
	}{
		{10, 0, 10, 1, 10},
		{10, -3, 1 << 62, 1, 3},
		{10, 9, -1 << 63, -1, 10},
		{10, 9, -1 << 63, -4, 3},
		{10, 100, -100, -1 << 63, 1},
		{10, 3, 3, 1, 0},
		{10, 3, 3, -1, 0},
		{0, 0, 5, 1, 0},
		{0, -1, -5, -1, 0},
		{1, -1 << 63, 1<<63 - 1, 1<<63 - 1, 1},
	}
	for _, c := range cases {
		if got := sliceCount(c.d, c.start, c.end, c.step); got != c.want {
			t.Errorf("sliceCount(%d, %d, %d, %d): got %d, want %d", c.d, c.start, c.end, c.step, got, c.want)
		}
	}
}

func TestSliceRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "slice", node: nd("Slice", nil, nil), in: []ruleIn{in(f32, 10, 20, 30), iv(1, -5), iv(8, 1<<62), iv(0, 2), iv(2, -1)}})
}
