package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestCumulative(t *testing.T) {
	cs := func(attrs ...any) nodeCase {
		return nodeCase{node: node("CumSum", []string{"x", "axis"}, attrsOf(attrs)...), opset: 14}
	}
	cp := func(attrs ...any) nodeCase {
		return nodeCase{node: node("CumProd", []string{"x", "axis"}, attrsOf(attrs)...), opset: 26}
	}
	ax := func(v int64) *tensor { return mk([]int{}, []int64{v}) }
	ax32 := func(v int32) *tensor { return mk([]int{1}, []int32{v}) }
	f64s := mk([]int{5}, []float64{1, 2, 3, 4, 5})
	m := mk([]int{2, 3}, []int32{1, 2, 3, 4, 5, 6})
	runDMCases(t, []dmCase{
		{name: "sum", c: cs(), ins: []*tensor{f64s, ax(0)}, vals: []string{"[1 3 6 10 15]"}},
		{name: "sum exclusive", c: cs("exclusive"), ins: []*tensor{f64s, ax(0)}, vals: []string{"[0 1 3 6 10]"}},
		{name: "sum reverse", c: cs("reverse"), ins: []*tensor{f64s, ax(0)}, vals: []string{"[15 14 12 9 5]"}},
		{name: "sum reverse exclusive", c: cs("reverse", "exclusive"), ins: []*tensor{f64s, ax(0)}, vals: []string{"[14 12 9 5 0]"}},
		{name: "sum axis 0", c: cs(), ins: []*tensor{m, ax32(0)}, shapes: [][]int{{2, 3}}, vals: []string{"[1 2 3 5 7 9]"}},
		{name: "sum axis -1", c: cs(), ins: []*tensor{m, ax(-1)}, vals: []string{"[1 3 6 4 9 15]"}},
		{name: "sum uint64", c: cs(), ins: []*tensor{mk([]int{3}, []uint64{1, 2, 3}), ax(0)}, vals: []string{"[1 3 6]"}},
		{name: "sum float32 middle axis", c: cs(), ins: []*tensor{mk([]int{2, 2, 2}, []float32{1, 2, 3, 4, 5, 6, 7, 8}), ax(1)}, vals: []string{"[1 2 4 6 5 6 12 14]"}},
		{name: "sum empty", c: cs(), ins: []*tensor{mk([]int{0, 3}, []float32{}), ax(1)}, shapes: [][]int{{0, 3}}},
		{name: "prod", c: cp(), ins: []*tensor{f64s, ax(0)}, vals: []string{"[1 2 6 24 120]"}},
		{name: "prod exclusive int32", c: cp("exclusive"), ins: []*tensor{mk([]int{5}, []int32{1, 2, 3, 4, 5}), ax32(0)}, vals: []string{"[1 1 2 6 24]"}},
		{name: "prod reverse exclusive", c: cp("reverse", "exclusive"), ins: []*tensor{f64s, ax(0)}, vals: []string{"[120 60 20 5 1]"}},
		{name: "prod axis 1", c: cp(), ins: []*tensor{m, ax(1)}, vals: []string{"[1 2 6 4 20 120]"}},
		{name: "axis out of range", c: cs(), ins: []*tensor{m, ax(2)}, err: errs.ShapeMismatch},
		{name: "uint16 refused", c: cs(), ins: []*tensor{mk([]int{2}, []uint16{0, 0}), ax(0)}, err: errs.Unsupported},
		{name: "float axis refused", c: cs(), ins: []*tensor{f64s, mk([]int{}, []float32{0})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "cumsum", cs("exclusive"), mk([]int{4, 5}, make([]float32, 20)), ax32(1))
	dmNoAllocs(t, "cumprod", cp("reverse"), mk([]int{4, 5}, make([]int64, 20)), ax(0))
}
