package model

import "testing"

func TestRoiAlignRule(t *testing.T) {
	ra := func(attrs ...Attr) *Node { return nd("RoiAlign", nil, nil, attrs...) }
	hw := []Attr{aI("output_height", 5), aI("output_width", 4)}
	runRules(t, []ruleCase{
		{name: "opset 10", opset: 10, node: ra(hw...), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, want: []sh{{f32, d(7, 3, 5, 4)}}},
		{name: "opset 16 max", opset: 16, node: ra(aS("mode", "max"), aS("coordinate_transformation_mode", "output_half_pixel")), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, want: []sh{{f32, d(7, 3, 1, 1)}}},
		{name: "partial", node: ra(hw...), in: []ruleIn{unr(f32), in(f32, -1, 4), in(i64, 7)}, want: []sh{{f32, d(7, -1, 5, 4)}}},
		{name: "rois shape", node: ra(), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 5), in(i64, 7)}, err: invalid},
		{name: "counts differ", node: ra(), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 6)}, runtime: true, err: mismatch},
		{name: "X rank", node: ra(), in: []ruleIn{in(f32, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, err: invalid},
		{name: "bad mode", node: ra(aS("mode", "min")), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, err: invalid},
		{name: "bad coordinate mode", node: ra(aS("coordinate_transformation_mode", "asymmetric")), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, err: invalid},
		{name: "zero output_height", node: ra(aI("output_height", 0)), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, err: invalid},
		{name: "before opset 10", opset: 9, node: ra(), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}, err: unsupp},
	})
	wantNoAllocs(t, ruleCase{name: "roialign", node: ra(hw...), in: []ruleIn{in(f32, 1, 3, 10, 10), in(f32, 7, 4), in(i64, 7)}})
}
