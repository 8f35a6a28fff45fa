package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestRotaryEmbedding(t *testing.T) {
	x := mk([]int{1, 1, 1, 4}, []float32{1, 2, 3, 4})
	cs := mk([]int{2, 2}, []float32{1, 1, 0, 0.5})
	sn := mk([]int{2, 2}, []float32{0, 0, 1, 0.5})
	pos := mk([]int{1, 1}, []int64{1})
	re := func(ins []string, attrs ...int64) nodeCase {
		n := node("RotaryEmbedding", ins)
		names := []string{"interleaved", "rotary_embedding_dim", "num_heads"}
		for i, a := range attrs {
			n.Attrs = append(n.Attrs, aInt(names[i], a))
		}
		return nodeCase{node: n, opset: 23}
	}
	withPos := []string{"x", "c", "s", "p"}
	runKernelCases(t, []kernelCase{
		{name: "halves", c: re(withPos), ins: []*tensor{x, cs, sn, pos}, shape: []int{1, 1, 1, 4}, want: []float64{-3, -1, 1, 3}},
		{name: "interleaved", c: re(withPos, 1), ins: []*tensor{x, cs, sn, pos}, shape: []int{1, 1, 1, 4}, want: []float64{-2, 1, -0.5, 3.5}},
		{name: "rotary dim", c: re(withPos, 0, 2), ins: []*tensor{x, mk([]int{2, 1}, []float32{1, 0}), mk([]int{2, 1}, []float32{0, 1}), pos},
			shape: []int{1, 1, 1, 4}, want: []float64{-2, 1, 3, 4}},
		{name: "3-D no positions", c: re([]string{"x", "c", "s"}, 0, 0, 2),
			ins:   []*tensor{mk([]int{1, 1, 4}, []float32{1, 2, 3, 4}), mk([]int{1, 1, 1}, []float32{0}), mk([]int{1, 1, 1}, []float32{1})},
			shape: []int{1, 1, 4}, want: []float64{-2, 1, -4, 3}},
		{name: "position out of range", c: re(withPos), ins: []*tensor{x, cs, sn, mk([]int{1, 1}, []int64{2})}, err: errs.ShapeMismatch},
		{name: "negative position", c: re(withPos), ins: []*tensor{x, cs, sn, mk([]int{1, 1}, []int64{-1})}, err: errs.ShapeMismatch},
		{name: "position type", c: re(withPos), ins: []*tensor{x, cs, sn, mk([]int{1, 1}, []int32{1})}, err: errs.InvalidArtifact},
		{name: "cache type", c: re(withPos), ins: []*tensor{x, mk([]int{2, 2}, []float64{1, 1, 0, 0.5}), sn, pos}, err: errs.InvalidArtifact},
	})
	wantSteadyNoAllocs(t, re(withPos), x, cs, sn, pos)
}
