package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestMatMulNBitsRule(t *testing.T) {
	ai := func(name string, v int64) Attr { return Attr{Name: name, Type: AttrInt, I: v} }
	nb := func(extra ...Attr) *Node {
		return msn("MatMulNBits", append([]Attr{ai("K", 40), ai("N", 6), ai("block_size", 16)}, extra...)...)
	}
	u8 := func(d ...int) ruleIn { return in(payload.Uint8, d...) }
	runRules(t, []ruleCase{
		{name: "3-D A", node: nb(), in: []ruleIn{in(f32, 2, 3, 40), u8(6, 3, 8), in(f32, 18)}, want: []sh{{f32, []int{2, 3, 6}}}},
		{name: "packed zero points", node: nb(), in: []ruleIn{in(f32, -1, 40), u8(6, 3, 8), in(f32, 6, 3), u8(12)}, want: []sh{{f32, []int{-1, 6}}}},
		{name: "float zero points and bias", node: nb(), in: []ruleIn{in(f32, 1, 40), u8(6, 24), in(f32, 18), in(f32, 18), absent, in(f32, 6)}, want: []sh{{f32, []int{1, 6}}}},
		{name: "unknown rank", node: nb(), in: []ruleIn{unr(f32), u8(6, 3, 8), in(f32, 18)}, want: []sh{{f32, nil}}},
		{name: "K mismatch", node: nb(), in: []ruleIn{in(f32, 2, 32), u8(6, 3, 8), in(f32, 18)}, err: invalid},
		{name: "B size", node: nb(), in: []ruleIn{in(f32, 2, 40), u8(6, 2, 8), in(f32, 18)}, err: invalid},
		{name: "packed zero points size", runtime: true, node: nb(), in: []ruleIn{in(f32, 2, 40), u8(6, 3, 8), in(f32, 18), u8(6)}, err: mismatch},
		{name: "bias size", node: nb(), in: []ruleIn{in(f32, 2, 40), u8(6, 3, 8), in(f32, 18), absent, absent, in(f32, 5)}, err: invalid},
		{name: "no N", node: msn("MatMulNBits", ai("K", 40), ai("block_size", 16)), in: []ruleIn{in(f32, 2, 40), u8(6, 3, 8), in(f32, 18)}, err: invalid},
		{name: "block size 8", node: msn("MatMulNBits", ai("K", 40), ai("N", 6), ai("block_size", 8)), in: []ruleIn{in(f32, 2, 40), u8(6, 5, 4), in(f32, 30)}, err: invalid},
		{name: "block size 48", node: msn("MatMulNBits", ai("K", 40), ai("N", 6), ai("block_size", 48)), in: []ruleIn{in(f32, 2, 40), u8(6, 1, 24), in(f32, 6)}, err: invalid},
		{name: "huge", node: msn("MatMulNBits", ai("K", 1<<30), ai("N", 1<<30), ai("block_size", 16)), in: []ruleIn{in(f32, 2, 40)}, err: invalid},
	})
	wantNoAllocs(t, ruleCase{node: nb(), in: []ruleIn{in(f32, 2, 3, 40), u8(6, 3, 8), in(f32, 18), u8(12)}})
}
