package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestEmbedLN(t *testing.T) {
	word := func() *tensor { return mk([]int{2, 2}, []float32{1, 3, 0, 0}) }
	pos := func() *tensor { return mk([]int{2, 2}, []float32{0, 0, 1, 1}) }
	gamma := func() *tensor { return mk([]int{2}, []float32{1, 2}) }
	beta := func() *tensor { return mk([]int{2}, []float32{0, 0.5}) }
	e := nodeCase{node: msNode("EmbedLayerNormalization", []string{"ids", "", "w", "p", "", "g", "b"})}
	runKernelCases(t, []kernelCase{
		// Token 0: [1 3], normalised [-1 1]; token 1: [1 1], all zero.
		{name: "no segments", c: e, ins: []*tensor{mk([]int{1, 2}, []int32{0, 1}), nil, word(), pos(), nil, gamma(), beta()}, shape: []int{1, 2, 2}, want: []float64{-1, 2.5, 0, 0.5}},
		{name: "segments", c: nodeCase{node: msNode("EmbedLayerNormalization", []string{"ids", "seg", "w", "p", "s", "g", "b"})},
			ins: []*tensor{mk([]int{1, 1}, []int32{1}), mk([]int{1, 1}, []int32{0}), word(), pos(), mk([]int{1, 2}, []float32{2, 0}), gamma(), beta()}, shape: []int{1, 1, 2}, want: []float64{1, -1.5}},
		{name: "id out of range", c: e, ins: []*tensor{mk([]int{1, 1}, []int32{2}), nil, word(), pos(), nil, gamma(), beta()}, err: errs.ShapeMismatch},
		{name: "sequence beyond positions", c: e, ins: []*tensor{mk([]int{1, 3}, []int32{0, 0, 0}), nil, word(), pos(), nil, gamma(), beta()}, err: errs.ShapeMismatch},
		{name: "position_ids", c: nodeCase{node: msNode("EmbedLayerNormalization", []string{"ids", "", "w", "p", "", "g", "b", "", "pid"})},
			ins: []*tensor{mk([]int{1, 1}, []int32{0}), nil, word(), pos(), nil, gamma(), beta(), nil, mk([]int{1, 1}, []int32{0})}, err: errs.Unsupported},
		{name: "int64 ids", c: e, ins: []*tensor{mk([]int{1, 1}, []int64{0}), nil, word(), pos(), nil, gamma(), beta()}, err: errs.Unsupported},
	})
	n := msNode("EmbedLayerNormalization", []string{"ids", "", "w", "p", "", "g", "b", "m"})
	n.Outputs = []string{"y", "mi", "sum"}
	ins := []*tensor{mk([]int{2, 2}, []int32{0, 1, 1, 0}), nil, word(), pos(), nil, gamma(), beta(), mk([]int{2, 2}, []int32{1, 1, 1, 0})}
	outs, err := runNode(t, nodeCase{node: n, outTypes: outTypesOf(mk([]int{1}, []float32{0}), mk([]int{1}, []int32{0}), mk([]int{1}, []float32{0}))}, ins...)
	if err != nil {
		t.Fatal(err)
	}
	if got := outs[1].i32(); len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("mask_index = %v, want [2 1]", got)
	}
	if got, want := outs[2].f32(), []float32{1, 3, 1, 1, 0, 0, 2, 4}; !equalF32(got, want) {
		t.Errorf("embedding_sum = %v, want %v", got, want)
	}
	if got := steadyAllocs(t, nodeCase{node: n, outTypes: outTypesOf(mk([]int{1}, []float32{0}), mk([]int{1}, []int32{0}), mk([]int{1}, []float32{0}))}, ins...); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}
