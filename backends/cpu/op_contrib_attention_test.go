package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

func TestMSAttention(t *testing.T) {
	// Weights of ones: Q, K and V all equal the input, [1 2].
	x := func() *tensor { return mk([]int{1, 2, 1}, []float32{1, 2}) }
	w := func() *tensor { return mk([]int{1, 3}, []float32{1, 1, 1}) }
	b := func() *tensor { return mk([]int{3}, []float32{0, 0, 0}) }
	at := func(in []string, extra ...model.Attr) nodeCase {
		return nodeCase{node: msNode("Attention", in, append([]model.Attr{aInt("num_heads", 1)}, extra...)...)}
	}
	runKernelCases(t, []kernelCase{
		// Scores [1 2] and [2 4].
		{name: "plain", c: at([]string{"x", "w", "b"}), ins: []*tensor{x(), w(), b()}, shape: []int{1, 2, 1}, want: []float64{1.7310586, 1.8807971}},
		{name: "const weights", c: nodeCase{node: at([]string{"x", "w", "b"}).node, consts: []int{1}}, ins: []*tensor{x(), w(), b()}, shape: []int{1, 2, 1}, want: []float64{1.7310586, 1.8807971}},
		{name: "causal", c: at([]string{"x", "w", "b"}, aInt("unidirectional", 1)), ins: []*tensor{x(), w(), b()}, shape: []int{1, 2, 1}, want: []float64{1, 1.8807971}},
		// Only the first key is kept.
		{name: "mask lengths", c: at([]string{"x", "w", "b", "m"}), ins: []*tensor{x(), w(), b(), mk([]int{1}, []int32{1})}, shape: []int{1, 2, 1}, want: []float64{1, 1}},
		{name: "mask 2-D", c: at([]string{"x", "w", "b", "m"}), ins: []*tensor{x(), w(), b(), mk([]int{1, 2}, []int32{0, 1})}, shape: []int{1, 2, 1}, want: []float64{2, 2}},
		{name: "do_rotary", c: at([]string{"x", "w", "b"}, aInt("do_rotary", 1)), ins: []*tensor{x(), w(), b()}, err: errs.Unsupported},
		{name: "mask 4-D", c: at([]string{"x", "w", "b", "m"}), ins: []*tensor{x(), w(), b(), mk([]int{1, 1, 2, 2}, []int32{1, 1, 1, 1})}, err: errs.Unsupported},
		{name: "weights", c: at([]string{"x", "w", "b"}), ins: []*tensor{x(), mk([]int{1, 4}, []float32{1, 1, 1, 1}), mk([]int{4}, []float32{0, 0, 0, 0})}, err: errs.ShapeMismatch},
	})
	n := msNode("Attention", []string{"x", "w", "b", "", "p"}, aInt("num_heads", 1))
	n.Outputs = []string{"y", "present"}
	ins := []*tensor{x(), w(), b(), nil, mk([]int{2, 1, 1, 1, 1}, []float32{5, 6})}
	outs, err := runNode(t, nodeCase{node: n}, ins...)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outs[1].f32(), []float32{5, 1, 2, 6, 1, 2}; !equalF32(got, want) {
		t.Errorf("present = %v, want %v", got, want)
	}
	if got := steadyAllocs(t, nodeCase{node: n, consts: []int{1}}, ins...); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}
