package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

// msn returns a node of ONNX Runtime's contrib domain.
func msn(op string, attrs ...Attr) *Node {
	return &Node{OpType: op, Domain: MSDomain, Attrs: attrs}
}

func TestMSGeluRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "Gelu", node: msn("Gelu"), in: []ruleIn{in(f32, 2, 8)}, want: []sh{{f32, []int{2, 8}}}},
		{name: "Gelu unknown rank", node: msn("Gelu"), in: []ruleIn{unr(f32)}, want: []sh{{f32, nil}}},
		{name: "BiasGelu", node: msn("BiasGelu"), in: []ruleIn{in(f32, 2, -1, 8), in(f32, 8)}, want: []sh{{f32, []int{2, -1, 8}}}},
		{name: "BiasGelu bias length", node: msn("BiasGelu"), in: []ruleIn{in(f32, 2, 8), in(f32, 4)}, err: invalid},
		{name: "BiasGelu bias rank", node: msn("BiasGelu"), in: []ruleIn{in(f32, 2, 8), in(f32, 1, 8)}, err: invalid},
		{name: "BiasGelu bias missing", node: msn("BiasGelu"), in: []ruleIn{in(f32, 2, 8), absent}, err: invalid},
		{name: "FastGelu bias", node: msn("FastGelu"), in: []ruleIn{in(f32, 3, 4), in(f32, 4)}, want: []sh{{f32, []int{3, 4}}}},
		{name: "FastGelu bias at run time", runtime: true, node: msn("FastGelu"), in: []ruleIn{in(f32, 3, 4), in(f32, 3)}, err: mismatch},
		{name: "QuickGelu", node: msn("QuickGelu", Attr{Name: "alpha", Type: AttrFloat, F: 1}), in: []ruleIn{in(payload.Float16, 4)}, want: []sh{{payload.Float16, []int{4}}}},
		{name: "QuickGelu bad alpha", node: msn("QuickGelu", Attr{Name: "alpha", Type: AttrInt, I: 1}), in: []ruleIn{in(f32, 4)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: msn("BiasGelu"), in: []ruleIn{in(f32, 2, 8), in(f32, 8)}})
}
