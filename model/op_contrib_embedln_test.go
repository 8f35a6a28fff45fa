package model

import "testing"

func TestEmbedLNRule(t *testing.T) {
	e := func(outs ...string) *Node {
		n := msn("EmbedLayerNormalization")
		n.Outputs = outs
		return n
	}
	f := func(d ...int) ruleIn { return in(f32, d...) }
	id := func(d ...int) ruleIn { return in(i32, d...) }
	runRules(t, []ruleCase{
		{name: "every output", node: e("y", "m", "s"), in: []ruleIn{id(2, 5), id(2, 5), f(30, 16), f(8, 16), f(2, 16), f(16), f(16), id(2, 5)},
			want: []sh{{f32, []int{2, 5, 16}}, {i32, []int{2}}, {f32, []int{2, 5, 16}}}},
		{name: "no segments", node: e("y"), in: []ruleIn{id(-1, -1), absent, f(30, 16), f(8, 16), absent, f(16), f(16)}, want: []sh{{f32, []int{-1, -1, 16}}}},
		{name: "hidden sizes differ", node: e("y"), in: []ruleIn{id(2, 5), absent, f(30, 16), f(8, 8), absent, f(16), f(16)}, err: invalid},
		{name: "gamma", node: e("y"), in: []ruleIn{id(2, 5), absent, f(30, 16), f(8, 16), absent, f(8), f(16)}, err: invalid},
		{name: "mask", runtime: true, node: e("y"), in: []ruleIn{id(2, 5), absent, f(30, 16), f(8, 16), absent, f(16), f(16), id(2, 4)}, err: mismatch},
		{name: "ids rank", node: e("y"), in: []ruleIn{id(10), absent, f(30, 16), f(8, 16), absent, f(16), f(16)}, err: invalid},
		{name: "segment ids alone", node: e("y"), in: []ruleIn{id(2, 5), id(2, 5), f(30, 16), f(8, 16), absent, f(16), f(16)}, err: invalid},
		{name: "no beta", node: e("y"), in: []ruleIn{id(2, 5), absent, f(30, 16), f(8, 16), absent, f(16)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: e("y", "m", "s"), in: []ruleIn{id(2, 5), id(2, 5), f(30, 16), f(8, 16), f(2, 16), f(16), f(16), id(2, 5)}})
}
