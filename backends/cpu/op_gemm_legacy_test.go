package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/internal/errs"
)

// TestGemmOpset6 runs Gemm before opset 7, where the broadcast attribute
// says whether C broadcasts to (M, N) or has that shape.
func TestGemmOpset6(t *testing.T) {
	a := mk([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	b := mk([]int{3, 2}, []float32{1, 0, 0, 1, 1, 1})
	// A·B = [[4 5] [10 11]].
	cases := []struct {
		name string
		bc   int64
		c    *tensor
		want []float64
		err  error
	}{
		{"broadcast row", 1, mk([]int{2}, []float32{10, 20}), []float64{14, 25, 20, 31}, nil},
		{"broadcast scalar", 1, mk([]int{}, []float32{1}), []float64{5, 6, 11, 12}, nil},
		{"full C", 0, mk([]int{2, 2}, []float32{1, 2, 3, 4}), []float64{5, 7, 13, 15}, nil},
		{"row without broadcast", 0, mk([]int{2}, []float32{10, 20}), nil, errs.ShapeMismatch},
	}
	for _, c := range cases {
		n := node("Gemm", []string{"a", "b", "c"}, aInt("broadcast", c.bc))
		outs, err := runNode(t, nodeCase{node: n, opset: 6}, a, b, c.c)
		if c.err != nil {
			nnWantErr(t, c.name, err, c.err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		nnShape(t, c.name, outs[0].shape, []int{2, 2})
		nnClose(t, c.name, nnFloats(outs[0]), c.want, 0)
	}
}
