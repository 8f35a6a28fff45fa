package model

import "testing"

func TestDepthSpaceRule(t *testing.T) {
	d2s := func(attrs ...Attr) *Node { return nd("DepthToSpace", nil, nil, attrs...) }
	s2d := func(attrs ...Attr) *Node { return nd("SpaceToDepth", nil, nil, attrs...) }
	b2 := aI("blocksize", 2)
	runRules(t, []ruleCase{
		{name: "depthtospace", node: d2s(b2), in: []ruleIn{in(f32, 1, 8, 2, 3)}, want: []sh{{f32, d(1, 2, 4, 6)}}},
		{name: "depthtospace crd", opset: 11, node: d2s(b2, aS("mode", "CRD")), in: []ruleIn{in(f32, 1, 8, 2, 3)}, want: []sh{{f32, d(1, 2, 4, 6)}}},
		{name: "depthtospace mode ignored before 11", opset: 1, node: d2s(b2, aS("mode", "bad")), in: []ruleIn{in(f32, 1, 4, 1, 1)}, want: []sh{{f32, d(1, 1, 2, 2)}}},
		{name: "spacetodepth", node: s2d(b2), in: []ruleIn{in(f32, 1, 2, 4, 6)}, want: []sh{{f32, d(1, 8, 2, 3)}}},
		{name: "unknown dims", node: s2d(b2), in: []ruleIn{in(f32, -1, 2, -1, 6)}, want: []sh{{f32, d(-1, 8, -1, 3)}}},
		{name: "unknown rank", node: d2s(b2), in: []ruleIn{unr(f32)}, want: []sh{{f32, d(-1, -1, -1, -1)}}},
		{name: "indivisible", node: d2s(b2), in: []ruleIn{in(f32, 1, 6, 2, 3)}, err: invalid},
		{name: "indivisible at run time", runtime: true, node: s2d(b2), in: []ruleIn{in(f32, 1, 6, 3, 2)}, err: mismatch},
		{name: "overflow", node: d2s(b2), in: []ruleIn{in(f32, 1, 4, maxDimValue, 1)}, err: invalid},
		{name: "rank 3", node: d2s(b2), in: []ruleIn{in(f32, 4, 2, 2)}, err: invalid},
		{name: "negative blocksize", node: d2s(aI("blocksize", -2)), in: []ruleIn{in(f32, 1, 4, 1, 1)}, err: invalid},
		{name: "huge blocksize", node: s2d(aI("blocksize", 1<<20)), in: []ruleIn{in(f32, 1, 4, 1, 1)}, err: invalid},
		{name: "no blocksize", node: s2d(), in: []ruleIn{in(f32, 1, 4, 1, 1)}, err: invalid},
		{name: "unknown mode", node: d2s(b2, aS("mode", "XYZ")), in: []ruleIn{in(f32, 1, 4, 1, 1)}, err: unsupp},
	})
}

func TestDepthSpaceRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "depthtospace", node: nd("DepthToSpace", nil, nil, aI("blocksize", 2)), in: []ruleIn{in(f32, 1, 8, 2, 3)}})
}
