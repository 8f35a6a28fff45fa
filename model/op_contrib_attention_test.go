package model

import "testing"

func TestMSAttentionRule(t *testing.T) {
	ai := func(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
	at := func(extra ...Attr) *Node {
		n := msn("Attention", append([]Attr{ai("num_heads", 2)}, extra...)...)
		n.Outputs = []string{"y", "present"}
		return n
	}
	f := func(d ...int) ruleIn { return in(f32, d...) }
	sizes := Attr{Name: "qkv_hidden_sizes", Type: AttrInts, Ints: []int64{16, 16, 8}}
	runRules(t, []ruleCase{
		{name: "plain", node: at(), in: []ruleIn{f(2, 4, 12), f(12, 48), f(48)}, want: []sh{{f32, []int{2, 4, 16}}, {f32, []int{2, 2, 2, 4, 8}}}},
		{name: "past", node: at(), in: []ruleIn{f(2, 1, 12), f(12, 48), f(48), in(i32, 2, 4), f(2, 2, 2, 3, 8)}, want: []sh{{f32, []int{2, 1, 16}}, {f32, []int{2, 2, 2, 4, 8}}}},
		{name: "qkv_hidden_sizes", node: at(sizes), in: []ruleIn{f(2, 4, 12), f(12, 40), f(40)}, want: []sh{{f32, []int{2, 4, 8}}, {f32, []int{2, 2, 2, 4, 8}}}},
		{name: "partial", node: at(), in: []ruleIn{f(-1, -1, 12), f(12, 48), f(48)}, want: []sh{{f32, []int{-1, -1, 16}}, {f32, []int{2, -1, 2, -1, 8}}}},
		{name: "weights rows", node: at(), in: []ruleIn{f(2, 4, 12), f(10, 48), f(48)}, err: invalid},
		{name: "weights columns", node: at(), in: []ruleIn{f(2, 4, 12), f(12, 47), f(47)}, err: invalid},
		{name: "past with other value size", node: at(sizes), in: []ruleIn{f(2, 1, 12), f(12, 40), f(40), absent, f(2, 2, 2, 3, 8)}, err: invalid},
		{name: "mask", runtime: true, node: at(), in: []ruleIn{f(2, 4, 12), f(12, 48), f(48), in(i32, 3)}, err: mismatch},
		{name: "mask ends and starts", node: at(), in: []ruleIn{f(2, 4, 12), f(12, 48), f(48), in(i32, 4)}, want: []sh{{f32, []int{2, 4, 16}}, {f32, []int{2, 2, 2, 4, 8}}}},
		{name: "bad sizes", node: at(Attr{Name: "qkv_hidden_sizes", Type: AttrInts, Ints: []int64{16, 8, 8}}), err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: at(), in: []ruleIn{f(2, 1, 12), f(12, 48), f(48), in(i32, 2, 4), f(2, 2, 2, 3, 8), f(1, 2, 1, 4)}})
}
