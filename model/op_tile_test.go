package model

import "testing"

func TestTileRule(t *testing.T) {
	tile := nd("Tile", nil, nil)
	runRules(t, []ruleCase{
		{name: "repeats", node: tile, in: []ruleIn{in(f32, 2, 3), iv(3, 2)}, want: []sh{{f32, d(6, 6)}}},
		{name: "unknown dim", node: tile, in: []ruleIn{in(f32, 2, -1), iv(3, 2)}, want: []sh{{f32, d(6, -1)}}},
		{name: "zero repeat of unknown dim", node: tile, in: []ruleIn{in(f32, -1), iv(0)}, want: []sh{{f32, d(0)}}},
		{name: "dynamic repeats", node: tile, in: []ruleIn{in(f32, 2, 3), in(i64, 2)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "unknown rank", node: tile, in: []ruleIn{unr(f32), iv(2)}, want: []sh{{f32, nil}}},
		{name: "opset 1", opset: 1, node: tile, in: []ruleIn{in(f32, 2, 3), is(i64, 4), is(i64, -1)}, want: []sh{{f32, d(2, 12)}}},
		{name: "opset 1 dynamic tiles", opset: 1, node: tile, in: []ruleIn{in(f32, 2, 3), in(i64), is(i64, 0)}, want: []sh{{f32, d(-1, 3)}}},
		{name: "opset 1 dynamic axis", opset: 1, node: tile, in: []ruleIn{in(f32, 2, 3), is(i64, 2), in(i64)}, want: []sh{{f32, d(-1, -1)}}},
		{name: "opset 1 two inputs", opset: 1, node: tile, in: []ruleIn{in(f32, 2), iv(2)}, err: invalid},
		{name: "overflow", node: tile, in: []ruleIn{in(f32, 1<<40), iv(1 << 40)}, err: invalid},
		{name: "negative repeat", node: tile, in: []ruleIn{in(f32, 2), iv(-1)}, err: invalid},
		{name: "negative repeat at run time", runtime: true, node: tile, in: []ruleIn{in(f32, 2), iv(-1)}, err: mismatch},
		{name: "repeats length", node: tile, in: []ruleIn{in(f32, 2), iv(1, 1)}, err: invalid},
		{name: "repeats of rank 2", node: tile, in: []ruleIn{in(f32, 2), in(i64, 1, 1)}, err: invalid},
	})
}

func TestTileRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "tile", node: nd("Tile", nil, nil), in: []ruleIn{in(f32, 2, 3, 4), iv(3, 1, 2)}})
}
