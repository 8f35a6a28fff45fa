package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestReverseSequence(t *testing.T) {
	rs := func(attrs ...model.Attr) nodeCase {
		return nodeCase{node: node("ReverseSequence", []string{"x", "l"}, attrs...), opset: 10}
	}
	lens := func(v ...int64) *tensor { return mk([]int{len(v)}, v) }
	x := mk([]int{4, 4}, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	runDMCases(t, []dmCase{
		// The spec's examples.
		{name: "time major", c: rs(), ins: []*tensor{mk([]int{4, 4}, []float32{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}), lens(4, 3, 2, 1)},
			vals: []string{"[3 6 9 12 2 5 8 13 1 4 10 14 0 7 11 15]"}},
		{name: "batch major", c: rs(aInt("batch_axis", 0), aInt("time_axis", 1)), ins: []*tensor{x, lens(1, 2, 3, 4)},
			vals: []string{"[0 1 2 3 5 4 6 7 10 9 8 11 15 14 13 12]"}},
		{name: "inner dims", c: rs(aInt("batch_axis", 0), aInt("time_axis", 1)), ins: []*tensor{mk([]int{1, 3, 2}, []int64{1, 2, 3, 4, 5, 6}), lens(2)},
			vals: []string{"[3 4 1 2 5 6]"}},
		{name: "zero length", c: rs(), ins: []*tensor{x, lens(0, 0, 0, 0)}, vals: []string{"[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15]"}},
		{name: "length too long", c: rs(), ins: []*tensor{x, lens(5, 0, 0, 0)}, err: errs.ShapeMismatch},
		{name: "negative length", c: rs(), ins: []*tensor{x, lens(-1, 0, 0, 0)}, err: errs.ShapeMismatch},
		{name: "int32 lengths refused", c: rs(), ins: []*tensor{x, mk([]int{4}, []int32{1, 1, 1, 1})}, err: errs.Unsupported},
	})
	dmNoAllocs(t, "reversesequence", rs(), x, lens(4, 3, 2, 1))
}
