package model

import "testing"

func TestFusedMatMulRule(t *testing.T) {
	fm := func(attrs ...Attr) *Node { return msn("FusedMatMul", attrs...) }
	tr := func(name string) Attr { return Attr{Name: name, Type: AttrInt, I: 1} }
	runRules(t, []ruleCase{
		{name: "plain", node: fm(), in: []ruleIn{in(f32, 2, 3, 5), in(f32, 5, 4)}, want: []sh{{f32, []int{2, 3, 4}}}},
		{name: "transA transB", node: fm(tr("transA"), tr("transB")), in: []ruleIn{in(f32, 2, 5, 3), in(f32, 4, 5)}, want: []sh{{f32, []int{2, 3, 4}}}},
		{name: "broadcast", node: fm(tr("transB")), in: []ruleIn{in(f32, 2, 1, 3, 5), in(f32, 6, 4, 5)}, want: []sh{{f32, []int{2, 6, 3, 4}}}},
		{name: "1-D B", node: fm(tr("transB")), in: []ruleIn{in(f32, 3, 5), in(f32, 5)}, want: []sh{{f32, []int{3}}}},
		{name: "partial", node: fm(tr("transA")), in: []ruleIn{in(f32, -1, -1), in(f32, -1, 4)}, want: []sh{{f32, []int{-1, 4}}}},
		{name: "unknown rank", node: fm(), in: []ruleIn{unr(f32), in(f32, 5, 4)}, want: []sh{{f32, nil}}},
		{name: "K mismatch", node: fm(tr("transB")), in: []ruleIn{in(f32, 3, 5), in(f32, 5, 4)}, err: invalid},
		{name: "batch mismatch", node: fm(), in: []ruleIn{in(f32, 2, 3, 5), in(f32, 3, 5, 4)}, err: invalid},
		{name: "scalar", node: fm(), in: []ruleIn{in(f32), in(f32, 5, 4)}, err: invalid},
		{name: "bad alpha", node: fm(Attr{Name: "alpha", Type: AttrString, S: "x"}), in: []ruleIn{in(f32, 3, 5), in(f32, 5, 4)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: fm(tr("transB")), in: []ruleIn{in(f32, 2, 1, 3, 5), in(f32, 6, 4, 5)}})
}
