package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestTopKRule(t *testing.T) {
	tk := func(attrs ...Attr) *Node { return nd("TopK", nil, []string{"v", "i"}, attrs...) }
	u64 := payload.Uint64
	runRules(t, []ruleCase{
		{name: "known k", opset: 24, node: tk(aI("axis", 1)), in: []ruleIn{in(f32, 3, 4), iv(3)}, want: []sh{{f32, d(3, 3)}, {i64, d(3, 3)}}},
		{name: "default axis", opset: 11, node: tk(aI("largest", 0)), in: []ruleIn{in(u64, 3, 4), iv(0)}, want: []sh{{u64, d(3, 0)}, {i64, d(3, 0)}}},
		{name: "unknown k", opset: 10, node: tk(), in: []ruleIn{in(f32, 3, 4), in(i64, 1)}, want: []sh{{f32, d(3, -1)}, {i64, d(3, -1)}}},
		{name: "unknown rank", node: tk(), in: []ruleIn{unr(f32), iv(2)}, want: []sh{{f32, nil}, {i64, nil}}},
		{name: "opset 1 attribute", opset: 1, node: tk(aI("k", 2), aI("axis", 0)), in: []ruleIn{in(f32, 3, 4)}, want: []sh{{f32, d(2, 4)}, {i64, d(2, 4)}}},
		{name: "opset 1 without k", opset: 1, node: tk(), in: []ruleIn{in(f32, 3, 4)}, err: invalid},
		{name: "opset 1 negative k", opset: 1, node: tk(aI("k", -1)), in: []ruleIn{in(f32, 3, 4)}, err: invalid},
		{name: "k too large", runtime: true, node: tk(), in: []ruleIn{in(f32, 3, 4), iv(5)}, err: mismatch},
		{name: "negative k", runtime: true, node: tk(), in: []ruleIn{in(f32, 3, 4), iv(-1)}, err: mismatch},
		{name: "k of two", node: tk(), in: []ruleIn{in(f32, 3, 4), iv(1, 2)}, err: invalid},
		{name: "k int32", node: tk(), in: []ruleIn{in(f32, 3, 4), in(i32, 1)}, err: invalid},
		{name: "axis out of range", node: tk(aI("axis", 2)), in: []ruleIn{in(f32, 3, 4), iv(1)}, err: invalid},
		{name: "k input at opset 1", opset: 9, node: tk(aI("k", 1)), in: []ruleIn{in(f32, 3, 4), iv(1)}, err: invalid},
	})
}

func TestTopKRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "topk", node: nd("TopK", nil, []string{"v", "i"}), in: []ruleIn{in(f32, 3, 4), iv(2)}})
}
