package model

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestRangeRule(t *testing.T) {
	rg := nd("Range", nil, nil)
	ints := func(dt payload.DType, a, b, c int64) []ruleIn { return []ruleIn{is(dt, a), is(dt, b), is(dt, c)} }
	flts := func(dt payload.DType, a, b, c float64) []ruleIn { return []ruleIn{fs(dt, a), fs(dt, b), fs(dt, c)} }
	const f64 = payload.Float64
	runRules(t, []ruleCase{
		{name: "int", node: rg, in: ints(i64, 1, 10, 3), want: []sh{{i64, d(3)}}},
		{name: "int exact", node: rg, in: ints(i64, 1, 10, 9), want: []sh{{i64, d(1)}}},
		{name: "int down", node: rg, in: ints(i64, 10, 1, -4), want: []sh{{i64, d(3)}}},
		{name: "int empty", node: rg, in: ints(i64, 10, 1, 1), want: []sh{{i64, d(0)}}},
		{name: "int32", node: rg, in: ints(i32, 0, 5, 1), want: []sh{{i32, d(5)}}},
		{name: "int full span big step", node: rg, in: ints(i64, -1<<63, 1<<63-1, 1<<62), want: []sh{{i64, d(4)}}},
		{name: "int min delta", node: rg, in: ints(i64, 1<<63-1, -1<<63, -1<<63), want: []sh{{i64, d(2)}}},
		{name: "float", node: rg, in: flts(f32, 0, 1, 0.25), want: []sh{{f32, d(4)}}},
		{name: "float inexact", node: rg, in: flts(f32, 0, 1, 0.3), want: []sh{{f32, d(4)}}},
		{name: "float down", node: rg, in: flts(f64, 1, -1, -0.5), want: []sh{{f64, d(4)}}},
		{name: "float32 difference rounds", node: rg, in: flts(f32, 16777216, 16777217, 1), want: []sh{{f32, d(0)}}},
		{name: "float64 difference exact", node: rg, in: flts(f64, 16777216, 16777217, 1), want: []sh{{f64, d(1)}}},
		{name: "dynamic", node: rg, in: []ruleIn{is(i32, 0), in(i32), is(i32, 1)}, want: []sh{{i32, d(-1)}}},
		{name: "int16 values unread", runtime: true, node: rg, in: []ruleIn{in(payload.Int16), in(payload.Int16), in(payload.Int16)}, want: []sh{{payload.Int16, d(-1)}}},
		{name: "before opset 11", opset: 10, node: rg, in: ints(i64, 0, 1, 1), err: unsupp},
		{name: "zero delta", node: rg, in: ints(i64, 1, 10, 0), err: invalid},
		{name: "zero delta at run time", runtime: true, node: rg, in: ints(i64, 1, 10, 0), err: mismatch},
		{name: "zero float delta", node: rg, in: flts(f32, 0, 1, 0), err: invalid},
		{name: "nan delta", runtime: true, node: rg, in: flts(f64, 0, 1, nan()), err: mismatch},
		{name: "infinite", node: rg, in: flts(f64, 0, inf(), 1), err: invalid},
		{name: "too long", node: rg, in: ints(i64, -1<<63, 1<<63-1, 1), err: invalid},
		{name: "not scalars", runtime: true, node: rg, in: []ruleIn{iv(0, 1), is(i64, 5), is(i64, 1)}, err: mismatch},
		{name: "two inputs", node: rg, in: []ruleIn{is(i64, 0), is(i64, 5)}, err: invalid},
	})
}

func TestRangeRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "int", node: nd("Range", nil, nil), in: []ruleIn{is(i64, -1<<63), is(i64, 1<<63-1), is(i64, 1<<60)}})
	wantNoAllocs(t, ruleCase{name: "float", node: nd("Range", nil, nil), in: []ruleIn{fs(f32, 0), fs(f32, 10), fs(f32, 0.3)}})
}

func nan() float64 { return math.NaN() }
func inf() float64 { return math.Inf(1) }
