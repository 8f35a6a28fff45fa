package model

import "testing"

func TestMSRotaryRule(t *testing.T) {
	ai := func(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
	re := func(attrs ...Attr) *Node { return msn("RotaryEmbedding", attrs...) }
	p := func(d ...int) ruleIn { return in(i64, d...) }
	runRules(t, []ruleCase{
		{name: "3-D", node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 4), in(f32, 10, 4)}, want: []sh{{f32, []int{2, 3, 32}}}},
		{name: "3-D heads from cache", node: re(), in: []ruleIn{in(f32, 2, 3, 32), p(1), in(f32, 10, 4), in(f32, 10, 4)}, want: []sh{{f32, []int{2, 3, 32}}}},
		{name: "4-D", node: re(), in: []ruleIn{in(f32, 2, 4, 3, 8), p(2, 3), in(f32, 10, 4), in(f32, 10, 4)}, want: []sh{{f32, []int{2, 4, 3, 8}}}},
		{name: "partial", node: re(ai("num_heads", 2), ai("rotary_embedding_dim", 4)), in: []ruleIn{in(f32, -1, -1, 32), p(-1, -1), in(f32, -1, 2), in(f32, -1, 2)}, want: []sh{{f32, []int{-1, -1, 32}}}},
		{name: "cache width", node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 3), in(f32, 10, 3)}, err: invalid},
		{name: "caches differ", node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 4), in(f32, 10, 2)}, err: invalid},
		{name: "cache rows differ", runtime: true, node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 4), in(f32, 8, 4)}, err: mismatch},
		{name: "heads", node: re(ai("num_heads", 5)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 4), in(f32, 10, 4)}, err: invalid},
		{name: "rotary dim beyond head", node: re(ai("num_heads", 4), ai("rotary_embedding_dim", 16)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 8), in(f32, 10, 8)}, err: invalid},
		{name: "positions", runtime: true, node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(3, 2), in(f32, 10, 4), in(f32, 10, 4)}, err: mismatch},
		{name: "rank 2", node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 3, 32), p(1), in(f32, 10, 4), in(f32, 10, 4)}, err: invalid},
		{name: "rotary dim without heads", node: re(ai("rotary_embedding_dim", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(1), in(f32, 10, 2), in(f32, 10, 2)}, err: invalid},
		{name: "odd rotary dim", node: re(ai("num_heads", 4), ai("rotary_embedding_dim", 3)), err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: re(ai("num_heads", 4)), in: []ruleIn{in(f32, 2, 3, 32), p(2, 3), in(f32, 10, 4), in(f32, 10, 4)}})
}
