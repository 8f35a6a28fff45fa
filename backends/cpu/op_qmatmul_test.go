package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestMatMulInteger(t *testing.T) {
	mmi := func(nin int) nodeCase {
		return nodeCase{node: node("MatMulInteger", []string{"a", "b", "za", "zb"}[:nin]), opset: 10, outTypes: []payload.DType{payload.Int32}}
	}
	u := func(shape []int, v ...uint8) *tensor { return mk(shape, v) }
	s := func(shape []int, v ...int8) *tensor { return mk(shape, v) }
	runDMCases(t, []dmCase{
		// The suite's test_matmulinteger: (A - 12) × B.
		{name: "scalar zero points", c: mmi(4), ins: []*tensor{u([]int{4, 3}, 11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0), u([]int{3, 2}, 1, 4, 2, 5, 3, 6), u([]int{1}, 12), u([]int{1}, 0)},
			shapes: [][]int{{4, 2}}, vals: []string{"[-38 -83 -44 -98 -50 -113 -56 -128]"}},
		{name: "no zero points", c: mmi(2), ins: []*tensor{s([]int{1, 2}, -1, 2), s([]int{2, 1}, 3, -4)}, vals: []string{"[-11]"}},
		{name: "per-column b zero point", c: mmi(4), ins: []*tensor{s([]int{1, 2}, 1, 2), s([]int{2, 2}, 3, 4, 5, 6), s(nil, 0), s([]int{2}, 1, 2)}, vals: []string{"[10 10]"}},
		{name: "per-row a zero point", c: mmi(3), ins: []*tensor{s([]int{2, 1}, 5, 7), s([]int{1, 1}, 3), s([]int{2}, 5, 6)}, vals: []string{"[0 3]"}},
		{name: "uint8 times int8", c: mmi(2), ins: []*tensor{u([]int{1, 1}, 200), s([]int{1, 1}, -3)}, vals: []string{"[-600]"}},
		{name: "batch broadcast", c: mmi(2), ins: []*tensor{s([]int{2, 1, 2}, 1, 2, 3, 4), s([]int{2, 1}, 1, 1)}, shapes: [][]int{{2, 1, 1}}, vals: []string{"[3 7]"}},
		{name: "zero point count", c: mmi(3), ins: []*tensor{s([]int{2, 1}, 5, 7), s([]int{1, 1}, 3), s([]int{3}, 5, 6, 7)}, err: errs.ShapeMismatch},
		{name: "int16 refused", c: mmi(2), ins: []*tensor{mk([]int{1, 1}, []int16{1}), mk([]int{1, 1}, []int16{1})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "matmulinteger", mmi(4), s([]int{2, 2, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), s([]int{3, 2}, 1, 2, 3, 4, 5, 6), s(nil, 1), s([]int{2}, 1, 2))
}

func TestQLinearMatMul(t *testing.T) {
	qmm := nodeCase{node: node("QLinearMatMul", []string{"a", "sa", "za", "b", "sb", "zb", "sy", "zy"}), opset: 10}
	u := func(shape []int, v ...uint8) *tensor { return mk(shape, v) }
	s := func(shape []int, v ...int8) *tensor { return mk(shape, v) }
	f := func(shape []int, v ...float32) *tensor { return mk(shape, v) }
	one := f(nil, 1)
	runDMCases(t, []dmCase{
		// 100 × 0.5×0.25/0.5 + 10.
		{name: "uint8", c: qmm, ins: []*tensor{u([]int{1, 2}, 10, 20), f(nil, 0.5), u(nil, 0), u([]int{2, 1}, 2, 4), f(nil, 0.25), u(nil, 0), f(nil, 0.5), u(nil, 10)},
			vals: []string{"[35]"}},
		// 10 × 0.25 = 2.5 rounds to 2.
		{name: "ties to even", c: qmm, ins: []*tensor{u([]int{1, 1}, 10), one, u(nil, 0), u([]int{1, 1}, 1), f(nil, 0.25), u(nil, 0), one, u(nil, 10)},
			vals: []string{"[12]"}},
		{name: "int8 saturates", c: qmm, ins: []*tensor{s([]int{1, 1}, 100), one, s(nil, 0), s([]int{1, 1}, 10), f(nil, 0.25), s(nil, 0), one, s(nil, 100)},
			vals: []string{"[127]"}},
		{name: "zero points", c: qmm, ins: []*tensor{s([]int{1, 2}, 3, 4), one, s(nil, 1), s([]int{2, 1}, -2, -3), one, s(nil, -1), one, s(nil, -5)},
			vals: []string{"[-13]"}},
		{name: "per-column b scale", c: qmm, ins: []*tensor{u([]int{1, 2}, 1, 1), one, u(nil, 0), u([]int{2, 2}, 4, 4, 4, 4), f([]int{2}, 0.25, 0.5), u([]int{2}, 0, 0), one, u(nil, 0)},
			vals: []string{"[2 4]"}},
		{name: "a_scale count", c: qmm, ins: []*tensor{u([]int{1, 1}, 1), f([]int{2}, 1, 1), u(nil, 0), u([]int{1, 1}, 1), one, u(nil, 0), one, u(nil, 0)}, err: errs.ShapeMismatch},
		{name: "float64 scale refused", c: qmm, ins: []*tensor{u([]int{1, 1}, 1), mk(nil, []float64{1}), u(nil, 0), u([]int{1, 1}, 1), one, u(nil, 0), one, u(nil, 0)}, err: errs.Unsupported},
		{name: "int16 refused", c: qmm, ins: []*tensor{mk([]int{1, 1}, []int16{1}), one, mk(nil, []int16{0}), u([]int{1, 1}, 1), one, u(nil, 0), one, u(nil, 0)}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "qlinearmatmul", qmm, u([]int{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), f(nil, 0.5), u(nil, 1), u([]int{2, 3}, 1, 2, 3, 4, 5, 6), f([]int{3}, 0.1, 0.2, 0.3), u([]int{3}, 1, 2, 3), f(nil, 0.2), u(nil, 7))
}
