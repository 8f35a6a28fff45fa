package model

import "testing"

func TestSkipNormRules(t *testing.T) {
	sln := func(outs ...string) *Node {
		n := msn("SkipLayerNormalization")
		n.Outputs = outs
		return n
	}
	f := func(d ...int) ruleIn { return in(f32, d...) }
	runRules(t, []ruleCase{
		{name: "known", node: sln("y"), in: []ruleIn{f(2, 3, 8), f(2, 3, 8), f(8), f(8)}, want: []sh{{f32, []int{2, 3, 8}}}},
		{name: "every output", node: sln("y", "m", "i", "s"), in: []ruleIn{f(2, 3, 8), f(1, 3, 8), f(8), absent, f(8)},
			want: []sh{{f32, []int{2, 3, 8}}, {f32, []int{2, 3, 1}}, {f32, []int{2, 3, 1}}, {f32, []int{2, 3, 8}}}},
		{name: "skip 2-D", node: sln("y"), in: []ruleIn{f(2, 3, 8), f(3, 8), f(8)}, want: []sh{{f32, []int{2, 3, 8}}}},
		{name: "partial", node: sln("y"), in: []ruleIn{f(-1, -1, 8), f(-1, -1, 8), f(8)}, want: []sh{{f32, []int{-1, -1, 8}}}},
		{name: "unknown rank", node: sln("y"), in: []ruleIn{unr(f32), f(2, 8), f(8)}, want: []sh{{f32, nil}}},
		{name: "skip mismatch", node: sln("y"), in: []ruleIn{f(2, 3, 8), f(2, 4, 8), f(8)}, err: invalid},
		{name: "gamma mismatch", node: sln("y"), in: []ruleIn{f(2, 3, 8), f(2, 3, 8), f(4)}, err: invalid},
		{name: "bias mismatch at run time", runtime: true, node: sln("y"), in: []ruleIn{f(2, 3, 8), f(2, 3, 8), f(8), f(8), f(2)}, err: mismatch},
		{name: "rank 1", node: sln("y"), in: []ruleIn{f(8), f(8), f(8)}, err: invalid},
		{name: "simplified", node: msn("SkipSimplifiedLayerNormalization"), in: []ruleIn{f(4, 8), f(4, 8), f(8), f(8)}, want: []sh{{f32, []int{4, 8}}}},
		{name: "simplified bias mismatch", node: msn("SkipSimplifiedLayerNormalization"), in: []ruleIn{f(4, 8), f(4, 8), f(8), f(3)}, err: invalid},
		{name: "simplified no beta input", node: msn("SkipSimplifiedLayerNormalization"), in: []ruleIn{f(4, 8), f(4, 8), f(8), f(8), f(8)}, err: invalid},
		{name: "bad epsilon", node: msn("SkipLayerNormalization", Attr{Name: "epsilon", Type: AttrFloat, F: -1}), in: []ruleIn{f(4, 8), f(4, 8), f(8)}, err: invalid},
		{name: "SimplifiedLayerNormalization", node: &Node{OpType: "SimplifiedLayerNormalization"}, in: []ruleIn{f(2, 3, 8), f(8)}, want: []sh{{f32, []int{2, 3, 8}}}},
	})
	// As in ONNX Runtime, SimplifiedLayerNormalization is of the default
	// domain only.
	if LookupOp(MSDomain, "SimplifiedLayerNormalization") != nil {
		t.Errorf("com.microsoft.SimplifiedLayerNormalization is described; ONNX Runtime has no such op")
	}
	wantNoAllocs(t, ruleCase{node: sln("y", "m", "i", "s"), in: []ruleIn{f(2, 3, 8), f(2, 3, 8), f(8), f(8)}})
}
