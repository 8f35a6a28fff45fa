package model

import "testing"

func TestMHARule(t *testing.T) {
	ai := func(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
	mha := func(outs ...string) *Node {
		n := msn("MultiHeadAttention", ai("num_heads", 2))
		n.Outputs = outs
		return n
	}
	f := func(d ...int) ruleIn { return in(f32, d...) }
	runRules(t, []ruleCase{
		{name: "3-D", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 6, 16), f(2, 6, 8)}, want: []sh{{f32, []int{2, 4, 8}}}},
		{name: "past and present", node: mha("y", "pk", "pv"), in: []ruleIn{f(2, 1, 16), f(2, 1, 16), f(2, 1, 16), absent, in(i32, 2, 6), absent, f(2, 2, 5, 8), f(2, 2, 5, 8)},
			want: []sh{{f32, []int{2, 1, 16}}, {f32, []int{2, 2, 6, 8}}, {f32, []int{2, 2, 6, 8}}}},
		{name: "4-D key and value", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 2, 6, 8), f(2, 2, 6, 8)}, want: []sh{{f32, []int{2, 4, 16}}}},
		{name: "packed qkv", node: mha("y"), in: []ruleIn{f(2, 4, 2, 3, 8)}, want: []sh{{f32, []int{2, 4, 16}}}},
		{name: "partial", node: mha("y"), in: []ruleIn{f(-1, -1, 16), f(-1, -1, 16), f(-1, -1, 16)}, want: []sh{{f32, []int{-1, -1, 16}}}},
		{name: "unknown rank", node: mha("y", "pk"), in: []ruleIn{unr(f32), f(2, 6, 16), f(2, 6, 16)}, want: []sh{{f32, nil}, {f32, nil}}},
		{name: "heads do not divide", node: mha("y"), in: []ruleIn{f(2, 4, 15), f(2, 6, 15), f(2, 6, 15)}, err: invalid},
		{name: "batch", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(3, 6, 16), f(3, 6, 16)}, err: invalid},
		{name: "no value", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 6, 16)}, err: invalid},
		{name: "mask length", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 6, 16), f(2, 6, 16), absent, in(i32, 2, 5)}, err: invalid},
		{name: "attention bias", runtime: true, node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 6, 16), f(2, 6, 16), absent, absent, f(2, 3, 4, 6)}, err: mismatch},
		{name: "bias", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 6, 16), f(2, 6, 16), f(32)}, err: invalid},
		{name: "past alone", node: mha("y"), in: []ruleIn{f(2, 4, 16), f(2, 6, 16), f(2, 6, 16), absent, absent, absent, f(2, 2, 3, 8)}, err: invalid},
		{name: "no num_heads", node: msn("MultiHeadAttention"), in: []ruleIn{f(2, 4, 16)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: mha("y", "pk", "pv"), in: []ruleIn{f(2, 1, 16), f(2, 1, 16), f(2, 1, 16), f(48), in(i32, 2, 6), f(1, 2, 1, 6), f(2, 2, 5, 8), f(2, 2, 5, 8)}})
}
