package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestCompressRule(t *testing.T) {
	cm := func(attrs ...Attr) *Node { return nd("Compress", nil, nil, attrs...) }
	b := payload.Bool
	runRules(t, []ruleCase{
		{name: "axis", opset: 11, node: cm(aI("axis", 1)), in: []ruleIn{in(f32, 3, 2), in(b, 2)}, want: []sh{{f32, d(3, -1)}}},
		{name: "negative axis", opset: 9, node: cm(aI("axis", -1)), in: []ruleIn{in(i64, 3, 2), in(b, 5)}, want: []sh{{i64, d(3, -1)}}},
		{name: "flattened", node: cm(), in: []ruleIn{in(f32, 3, 2), in(b, 5)}, want: []sh{{f32, d(-1)}}},
		{name: "unknown rank", node: cm(aI("axis", 0)), in: []ruleIn{unr(f32), in(b, 5)}, want: []sh{{f32, nil}}},
		{name: "axis out of range", node: cm(aI("axis", 2)), in: []ruleIn{in(f32, 3, 2), in(b, 2)}, err: invalid},
		{name: "condition not bool", node: cm(), in: []ruleIn{in(f32, 3), in(i64, 3)}, err: invalid},
		{name: "condition rank 2", runtime: true, node: cm(), in: []ruleIn{in(f32, 3), in(b, 3, 1)}, err: mismatch},
		{name: "before opset 9", opset: 8, node: cm(), in: []ruleIn{in(f32, 3), in(b, 3)}, err: unsupp},
	})
}

func TestCompressRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "compress", node: nd("Compress", nil, nil, aI("axis", 1)), in: []ruleIn{in(f32, 3, 2), in(payload.Bool, 2)}})
}
