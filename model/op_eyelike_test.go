package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestEyeLikeRule(t *testing.T) {
	ey := func(attrs ...Attr) *Node { return nd("EyeLike", nil, nil, attrs...) }
	runRules(t, []ruleCase{
		{name: "same type", opset: 9, node: ey(), in: []ruleIn{in(i32, 3, 4)}, want: []sh{{i32, d(3, 4)}}},
		{name: "dtype", opset: 22, node: ey(aI("dtype", int64(payload.Float64)), aI("k", -1)), in: []ruleIn{in(i32, 3, 4)}, want: []sh{{payload.Float64, d(3, 4)}}},
		{name: "partial", node: ey(), in: []ruleIn{in(f32, -1, 4)}, want: []sh{{f32, d(-1, 4)}}},
		{name: "unknown rank", node: ey(), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}}},
		{name: "rank 3", runtime: true, node: ey(), in: []ruleIn{in(f32, 2, 2, 2)}, err: mismatch},
		{name: "bad dtype", node: ey(aI("dtype", 99)), in: []ruleIn{in(f32, 2, 2)}, err: invalid},
		{name: "before opset 9", opset: 8, node: ey(), in: []ruleIn{in(f32, 2, 2)}, err: unsupp},
	})
}

func TestEyeLikeRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "eyelike", node: nd("EyeLike", nil, nil), in: []ruleIn{in(f32, 2, 3)}})
}
