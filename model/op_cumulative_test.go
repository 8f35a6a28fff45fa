package model

import (
	"testing"

	"github.com/lintel-ml/lintel/payload"
)

func TestCumulativeRule(t *testing.T) {
	cs := func(attrs ...Attr) *Node { return nd("CumSum", nil, nil, attrs...) }
	cp := func(attrs ...Attr) *Node { return nd("CumProd", nil, nil, attrs...) }
	f64 := payload.Float64
	runRules(t, []ruleCase{
		{name: "cumsum", opset: 14, node: cs(), in: []ruleIn{in(f64, 2, 3), is(i32, 1)}, want: []sh{{f64, d(2, 3)}}},
		{name: "cumsum opset 11 exclusive reverse", opset: 11, node: cs(aI("exclusive", 1), aI("reverse", 1)), in: []ruleIn{in(f32, 5), in(i64, 1)}, want: []sh{{f32, d(5)}}},
		{name: "cumsum partial", node: cs(), in: []ruleIn{in(f32, -1, 3), in(i64)}, want: []sh{{f32, d(-1, 3)}}},
		{name: "cumsum unknown rank", node: cs(), in: []ruleIn{unr(i32), unr(i64)}, want: []sh{{i32, nil}}},
		{name: "cumsum axis out of range", node: cs(), in: []ruleIn{in(f32, 2, 3), is(i64, 2)}, err: invalid},
		{name: "cumsum axis out of range at run time", runtime: true, node: cs(), in: []ruleIn{in(f32, 2, 3), is(i64, -3)}, err: mismatch},
		{name: "cumsum float axis", node: cs(), in: []ruleIn{in(f32, 2), in(f32)}, err: invalid},
		{name: "cumsum axis vector", node: cs(), in: []ruleIn{in(f32, 2), in(i64, 2)}, err: invalid},
		{name: "cumsum before opset 11", opset: 10, node: cs(), in: []ruleIn{in(f32, 2), in(i64)}, err: unsupp},
		{name: "cumprod", opset: 26, node: cp(aI("exclusive", 1)), in: []ruleIn{in(i32, 4), is(i32, 0)}, want: []sh{{i32, d(4)}}},
		{name: "cumprod before opset 26", opset: 25, node: cp(), in: []ruleIn{in(f32, 2), in(i64)}, err: unsupp},
		{name: "cumprod one input", opset: 26, node: cp(), in: []ruleIn{in(f32, 2)}, err: invalid},
	})
}

func TestCumulativeRuleNoAllocs(t *testing.T) {
	wantNoAllocs(t, ruleCase{name: "cumsum", node: nd("CumSum", nil, nil), in: []ruleIn{in(f32, 2, 3), is(i64, 1)}})
}
