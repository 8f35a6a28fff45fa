package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

func TestSkipNorm(t *testing.T) {
	x := func() *tensor { return mk([]int{1, 2}, []float32{1, 3}) }
	skip := func() *tensor { return mk([]int{1, 2}, []float32{1, 1}) }
	gamma := func() *tensor { return mk([]int{2}, []float32{1, 2}) }
	beta := func() *tensor { return mk([]int{2}, []float32{0.5, 0.5}) }
	sln := nodeCase{node: msNode("SkipLayerNormalization", []string{"x", "s", "g", "b"})}
	ssln := nodeCase{node: msNode("SkipSimplifiedLayerNormalization", []string{"x", "s", "g"})}
	runKernelCases(t, []kernelCase{
		// x+skip = [2 4]: mean 3, variance 1.
		{name: "layer norm", c: sln, ins: []*tensor{x(), skip(), gamma(), beta()}, shape: []int{1, 2}, want: []float64{-0.5, 2.5}},
		// bias [1 -1] makes the row [3 3]: variance 0, so eps alone divides.
		{name: "bias", c: nodeCase{node: msNode("SkipLayerNormalization", []string{"x", "s", "g", "", "bias"}, aFloat("epsilon", 1))},
			ins: []*tensor{x(), skip(), gamma(), nil, mk([]int{2}, []float32{1, -1})}, shape: []int{1, 2}, want: []float64{0, 0}},
		// [2 4] / sqrt((4+16)/2) · gamma
		{name: "simplified", c: ssln, ins: []*tensor{x(), skip(), gamma()}, shape: []int{1, 2}, want: []float64{0.63245553, 2.52982213}},
		{name: "skip broadcast", c: sln, ins: []*tensor{mk([]int{2, 1, 2}, []float32{1, 3, 3, 1}), mk([]int{1, 1, 2}, []float32{1, 1}), gamma(), beta()},
			shape: []int{2, 1, 2}, want: []float64{-0.5, 2.5, 1.5, -1.5}},
		{name: "skip shape", c: sln, ins: []*tensor{x(), mk([]int{1, 3}, []float32{1, 1, 1}), gamma(), beta()}, err: errs.ShapeMismatch},
		{name: "gamma shape", c: sln, ins: []*tensor{x(), skip(), mk([]int{3}, []float32{1, 1, 1}), beta()}, err: errs.ShapeMismatch},
		{name: "rank 4", c: sln, ins: []*tensor{mk([]int{1, 1, 1, 2}, []float32{1, 3}), skip(), gamma(), beta()}, err: errs.ShapeMismatch},
		{name: "float64", c: sln, ins: []*tensor{mk([]int{1}, []float64{1}), skip(), gamma(), beta()}, err: errs.Unsupported},
	})
	sum := msNode("SkipLayerNormalization", []string{"x", "s", "g", "b"})
	sum.Outputs = []string{"y", "mean", "inv", "sum"}
	outs, err := runNode(t, nodeCase{node: sum}, x(), skip(), gamma(), beta())
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]float32{{-0.5, 2.5}, {3}, {1}, {2, 4}} {
		got := outs[i].f32()
		if len(got) != len(want) {
			t.Fatalf("output %d: got %v, want %v", i, got, want)
		}
		for j := range want {
			if d := got[j] - want[j]; d > 1e-5 || d < -1e-5 {
				t.Errorf("output %d: got %v, want %v", i, got, want)
			}
		}
	}
	if got := steadyAllocs(t, nodeCase{node: sum}, x(), skip(), gamma(), beta()); got != 0 {
		t.Errorf("got %v allocations per run, want 0", got)
	}
}

func TestSimplifiedLayerNorm(t *testing.T) {
	n := node("SimplifiedLayerNormalization", []string{"x", "s"}, aFloat("epsilon", 0))
	inv := node("SimplifiedLayerNormalization", []string{"x", "s"})
	inv.Outputs = []string{"y", "inv"}
	runKernelCases(t, []kernelCase{
		{name: "rms", c: nodeCase{node: n}, ins: []*tensor{mk([]int{1, 2}, []float32{2, 4}), mk([]int{2}, []float32{1, 2})}, shape: []int{1, 2}, want: []float64{0.63245553, 2.52982213}},
		{name: "inv_std_var", c: nodeCase{node: inv}, ins: []*tensor{mk([]int{1, 2}, []float32{2, 4}), mk([]int{2}, []float32{1, 2})}, err: errs.Unsupported},
	})
}
