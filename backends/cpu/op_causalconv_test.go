package cpu

import (
	"math"
	"testing"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func TestCausalConvWithState(t *testing.T) {
	// One batch item, two channels of length 3, kernel 2.
	x := mk([]int{1, 2, 3}, []float32{1, 2, 3, 4, 5, 6})
	w := mk([]int{2, 1, 2}, []float32{1, 10, -1, 1})
	b := mk([]int{2}, []float32{0.5, 0})
	p := mk([]int{1, 2, 1}, []float32{7, 8})
	cc := func(ins []string, silu bool) nodeCase {
		n := node("CausalConvWithState", ins)
		if silu {
			n.Attrs = append(n.Attrs, aString("activation", "silu"))
		}
		n.Outputs = []string{"y", "state"}
		return nodeCase{node: n, opset: 27}
	}
	silu := func(v float64) float64 { return v / (1 + math.Exp(-v)) }
	cases := []struct {
		name     string
		c        nodeCase
		ins      []*tensor
		want, st []float64
	}{
		// Channel 0: 1·prev + 10·cur + 0.5; channel 1: cur - prev.
		{"no state", cc([]string{"x", "w"}, false), []*tensor{x, w}, []float64{10, 21, 32, 4, 1, 1}, []float64{3, 6}},
		{"bias and state", cc([]string{"x", "w", "b", "p"}, false), []*tensor{x, w, b, p}, []float64{17.5, 21.5, 32.5, -4, 1, 1}, []float64{3, 6}},
		{"silu", cc([]string{"x", "w", "", "p"}, true), []*tensor{x, w, nil, p}, []float64{silu(17), silu(21), silu(32), silu(-4), silu(1), silu(1)}, []float64{3, 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			outs, err := runNode(t, c.c, c.ins...)
			if err != nil {
				t.Fatal(err)
			}
			for j, want := range [][]float64{c.want, c.st} {
				got := toF64(outs[j])
				if len(got) != len(want) {
					t.Fatalf("output %d: got %v, want %v", j, got, want)
				}
				for i := range got {
					if math.Abs(got[i]-want[i]) > 1e-5 {
						t.Fatalf("output %d: got %v, want %v", j, got, want)
					}
				}
			}
		})
	}
	// A state longer than the input keeps part of the past.
	long := mk([]int{1, 1, 1}, []float32{9})
	outs, err := runNode(t, cc([]string{"x", "w", "", "p"}, false), long, mk([]int{1, 1, 3}, []float32{1, 1, 1}), nil, mk([]int{1, 1, 2}, []float32{2, 3}))
	if err != nil {
		t.Fatal(err)
	}
	if got := outs[0].f32(); got[0] != 14 {
		t.Errorf("y = %v, want [14]", got)
	}
	if got := outs[1].f32(); got[0] != 3 || got[1] != 9 {
		t.Errorf("state = %v, want [3 9]", got)
	}
	half := func(v ...float32) []float16.Float16 {
		return ewSeq(len(v), func(i int) float16.Float16 { return float16.Fromfloat32(v[i]) })
	}
	hc := cc([]string{"x", "w"}, false)
	hc.outTypes = []payload.DType{payload.Float16, payload.Float16}
	outs, err = runNode(t, hc, mk([]int{1, 2, 3}, half(1, 2, 3, 4, 5, 6)), mk([]int{2, 1, 2}, half(1, 10, -1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float32{10, 21, 32, 4, 1, 1} {
		if got := elems[float16.Float16](outs[0])[i].Float32(); got != want {
			t.Errorf("float16 y[%d] = %v, want %v", i, got, want)
		}
	}
	runKernelCases(t, []kernelCase{
		{name: "weight type", c: cc([]string{"x", "w"}, false), ins: []*tensor{x, mk([]int{2, 1, 2}, []float64{1, 1, 1, 1})}, err: errs.InvalidArtifact},
		{name: "int32", c: cc([]string{"x", "w"}, false), ins: []*tensor{mk([]int{1, 1, 1}, []int32{1}), mk([]int{1, 1, 1}, []int32{1})}, err: errs.Unsupported},
		{name: "state shape", c: cc([]string{"x", "w", "", "p"}, false), ins: []*tensor{x, w, nil, mk([]int{1, 2, 2}, []float32{1, 2, 3, 4})}, err: errs.ShapeMismatch},
	})
	wantSteadyNoAllocs(t, nodeCase{node: node("CausalConvWithState", []string{"x", "w", "b", "p"}), opset: 27}, x, w, b, p)
}
