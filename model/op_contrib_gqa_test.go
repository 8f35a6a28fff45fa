package model

import "testing"

func TestGQARule(t *testing.T) {
	ai := func(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
	gqa := func(extra ...Attr) *Node {
		n := msn("GroupQueryAttention", append([]Attr{ai("num_heads", 4), ai("kv_num_heads", 2)}, extra...)...)
		n.Outputs = []string{"y", "pk", "pv"}
		return n
	}
	f := func(d ...int) ruleIn { return in(f32, d...) }
	sl := in(i32, 2)
	tl := func(v int64) ruleIn { return is(i32, v) }
	runRules(t, []ruleCase{
		{name: "prompt", node: gqa(), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, sl, tl(4)},
			want: []sh{{f32, []int{2, 4, 64}}, {f32, []int{2, 2, 4, 16}}, {f32, []int{2, 2, 4, 16}}}},
		{name: "past buffer", node: gqa(), in: []ruleIn{f(2, 1, 64), f(2, 1, 32), f(2, 1, 32), f(2, 2, 8, 16), f(2, 2, 8, 16), sl, tl(6)},
			want: []sh{{f32, []int{2, 1, 64}}, {f32, []int{2, 2, 8, 16}}, {f32, []int{2, 2, 8, 16}}}},
		{name: "packed", node: gqa(), in: []ruleIn{f(2, 4, 128), absent, absent, absent, absent, sl, tl(4)},
			want: []sh{{f32, []int{2, 4, 64}}, {f32, []int{2, 2, 4, 16}}, {f32, []int{2, 2, 4, 16}}}},
		{name: "total unknown", node: gqa(), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, sl, in(i32)},
			want: []sh{{f32, []int{2, 4, 64}}, {f32, []int{2, 2, -1, 16}}, {f32, []int{2, 2, -1, 16}}}},
		{name: "key width", node: gqa(), in: []ruleIn{f(2, 4, 64), f(2, 4, 64), f(2, 4, 64), absent, absent, sl, tl(4)}, err: invalid},
		{name: "past heads", node: gqa(), in: []ruleIn{f(2, 1, 64), f(2, 1, 32), f(2, 1, 32), f(2, 4, 8, 16), f(2, 4, 8, 16), sl, tl(6)}, err: invalid},
		{name: "seqlens", runtime: true, node: gqa(), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, in(i32, 3), tl(4)}, err: mismatch},
		{name: "total zero", runtime: true, node: gqa(), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, sl, tl(0)}, err: mismatch},
		{name: "rotary without caches", node: gqa(ai("do_rotary", 1)), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, sl, tl(4)}, err: invalid},
		{name: "rotary cache too wide", node: gqa(ai("do_rotary", 1)), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, sl, tl(4), f(8, 16), f(8, 16)}, err: invalid},
		{name: "rotary caches differ", runtime: true, node: gqa(ai("do_rotary", 1)), in: []ruleIn{f(2, 4, 64), f(2, 4, 32), f(2, 4, 32), absent, absent, sl, tl(4), f(16, 8), f(12, 8)}, err: mismatch},
		{name: "total beyond the tokens", runtime: true, node: gqa(), in: []ruleIn{f(2, 1, 64), f(2, 1, 32), f(2, 1, 32), f(2, 2, 8, 16), f(2, 2, 8, 16), sl, tl(1 << 30)}, err: mismatch},
		{name: "heads", node: msn("GroupQueryAttention", ai("num_heads", 4), ai("kv_num_heads", 3)), err: invalid},
		{name: "no kv_num_heads", node: msn("GroupQueryAttention", ai("num_heads", 4)), err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: gqa(ai("do_rotary", 1)), in: []ruleIn{f(2, 1, 64), f(2, 1, 32), f(2, 1, 32), f(2, 2, 8, 16), f(2, 2, 8, 16), sl, tl(6), f(16, 8), f(16, 8)}})
}
