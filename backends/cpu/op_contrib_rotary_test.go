package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestMSRotary(t *testing.T) {
	// Position 0 leaves a pair as it is, position 1 turns it by 90°.
	cs := func() *tensor { return mk([]int{2, 1}, []float32{1, 0}) }
	sn := func() *tensor { return mk([]int{2, 1}, []float32{0, 1}) }
	x := func() *tensor { return mk([]int{1, 2, 2}, []float32{1, 2, 3, 4}) }
	re := nodeCase{node: msNode("RotaryEmbedding", []string{"x", "p", "c", "s"})}
	runKernelCases(t, []kernelCase{
		{name: "positions", c: re, ins: []*tensor{x(), mk([]int{1, 2}, []int64{1, 0}), cs(), sn()}, shape: []int{1, 2, 2}, want: []float64{-2, 1, 3, 4}},
		{name: "offset", c: re, ins: []*tensor{x(), mk([]int{1}, []int64{0}), cs(), sn()}, shape: []int{1, 2, 2}, want: []float64{1, 2, -4, 3}},
		{name: "position out of range", c: re, ins: []*tensor{x(), mk([]int{1}, []int64{1}), cs(), sn()}, err: errs.ShapeMismatch},
		{name: "position_ids shape", c: re, ins: []*tensor{x(), mk([]int{2}, []int64{0, 1}), cs(), sn()}, err: errs.ShapeMismatch},
		{name: "cache width", c: re, ins: []*tensor{x(), mk([]int{1}, []int64{0}), mk([]int{2, 2}, []float32{1, 1, 1, 1}), mk([]int{2, 2}, []float32{1, 1, 1, 1})}, err: errs.ShapeMismatch},
		{name: "packed batching", c: nodeCase{node: msNode("RotaryEmbedding", []string{"x", "p", "c", "s"}, aInt("is_packed_batching", 1))},
			ins: []*tensor{x(), mk([]int{1}, []int64{0}), cs(), sn()}, err: errs.Unsupported},
	})
	wantSteadyNoAllocs(t, re, mk([]int{2, 3, 4}, make([]float32, 24)), mk([]int{1}, []int64{0}), mk([]int{4, 2}, make([]float32, 8)), mk([]int{4, 2}, make([]float32, 8)))
}
