package model

import "testing"

func TestShapeRule(t *testing.T) {
	shape := func(attrs ...Attr) *Node { return nd("Shape", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "all dims", node: shape(), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{i64, d(3)}}},
		{name: "start end", node: shape(aI("start", 1), aI("end", -1)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{i64, d(1)}}},
		{name: "start only", node: shape(aI("start", -2)), in: []ruleIn{in(f32, 2, -1, 4)}, want: []sh{{i64, d(2)}}},
		{name: "clamped", node: shape(aI("start", -10), aI("end", 10)), in: []ruleIn{in(f32, 2, 3)}, want: []sh{{i64, d(2)}}},
		{name: "end before start", node: shape(aI("start", 2), aI("end", 1)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{i64, d(0)}}},
		{name: "attributes ignored before 15", opset: 13, node: shape(aI("start", 1)), in: []ruleIn{in(f32, 2, 3, 4)}, want: []sh{{i64, d(3)}}},
		{name: "scalar", node: shape(), in: []ruleIn{in(f32)}, want: []sh{{i64, d(0)}}},
		{name: "unknown rank", node: shape(), in: []ruleIn{unr(f32)}, want: []sh{{i64, d(-1)}}},
		{name: "start of the wrong type", node: shape(aF("start", 1)), in: []ruleIn{in(f32, 2)}, err: invalid},
		{name: "no input", node: shape(), in: []ruleIn{absent}, err: invalid},
	})
}

func TestShapeSpan(t *testing.T) {
	cases := []struct {
		a       ShapeAttrs
		r, s, e int
	}{
		{ShapeAttrs{}, 3, 0, 3},
		{ShapeAttrs{Start: -1}, 3, 2, 3},
		{ShapeAttrs{Start: 1, End: -1, HasEnd: true}, 4, 1, 3},
		{ShapeAttrs{End: 0, HasEnd: true}, 4, 0, 0},
		{ShapeAttrs{Start: 5, End: 2, HasEnd: true}, 4, 4, 4},
	}
	for _, c := range cases {
		if s, e := c.a.Span(c.r); s != c.s || e != c.e {
			t.Errorf("%+v.Span(%d): got [%d, %d), want [%d, %d)", c.a, c.r, s, e, c.s, c.e)
		}
	}
}

func TestSizeRule(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "known", node: nd("Size", nil, nil), in: []ruleIn{in(f32, 2, 3)}, want: []sh{{i64, d()}}},
		{name: "unknown rank", opset: 1, node: nd("Size", nil, nil), in: []ruleIn{unr(f32)}, want: []sh{{i64, d()}}},
		{name: "two inputs", node: nd("Size", nil, nil), in: []ruleIn{in(f32, 2), in(f32, 2)}, err: invalid},
	})
}
