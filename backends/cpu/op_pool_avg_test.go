package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// poolGuard fills the cells around an output that no kernel may write.
const poolGuard = float32(-12345.5)

// TestAvgPoolRunMatchesPoolRun wants the fast AveragePool loop to give
// poolRun's bits on windows with and without padding, counted or not.
func TestAvgPoolRunMatchesPoolRun(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	tests := []struct {
		shape          []int
		kern, str, pad []int64
		incl, ceil     int64
	}{
		{[]int{1, 5, 3, 80}, []int64{3, 2}, []int64{3, 2}, []int64{0, 0, 0, 0}, 0, 0},
		{[]int{2, 3, 11, 13}, []int64{3, 3}, []int64{2, 2}, []int64{1, 1, 1, 1}, 0, 0},
		{[]int{2, 3, 11, 13}, []int64{3, 3}, []int64{2, 2}, []int64{1, 1, 1, 1}, 1, 0},
		{[]int{1, 4, 9, 10}, []int64{2, 4}, []int64{1, 3}, []int64{0, 2, 1, 3}, 1, 1},
		{[]int{1, 4, 9, 10}, []int64{2, 4}, []int64{1, 3}, []int64{0, 2, 1, 3}, 0, 1},
		{[]int{1, 2, 17}, []int64{5}, []int64{2}, []int64{2, 2}, 0, 0},
		{[]int{1, 2, 5, 6, 7}, []int64{2, 3, 2}, []int64{1, 2, 2}, []int64{1, 0, 1, 0, 1, 1}, 1, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v k%v s%v p%v incl%d ceil%d", tc.shape, tc.kern, tc.str, tc.pad, tc.incl, tc.ceil), func(t *testing.T) {
			x := randT(r, 4, tc.shape...)
			c := nodeCase{node: node("AveragePool", []string{"x"}, aInts("kernel_shape", tc.kern...), aInts("strides", tc.str...),
				aInts("pads", tc.pad...), aInt("count_include_pad", tc.incl), aInt("ceil_mode", tc.ceil))}
			bc := caseCtx(c, []*tensor{x})
			kn, err := buildKernel(bc)
			if err != nil {
				t.Fatal(err)
			}
			y := &tensor{dt: x.dt}
			if err := newOutShaper(bc, kn).shapes([]*tensor{x}, []*tensor{y}); err != nil {
				t.Fatal(err)
			}
			k := kn.(*poolKernel)
			n := y.numel()
			got, want := make([]float32, n+2), make([]float32, n+2)
			got[0], got[n+1] = poolGuard, poolGuard
			avgPoolRun(k, x.f32(), got[1:n+1], 0, k.planes)
			poolRun(k, x.f32(), want[1:n+1], nil, -math.MaxFloat32, 0, k.planes)
			if got[0] != poolGuard || got[n+1] != poolGuard {
				t.Fatalf("guard cells overwritten")
			}
			for i := range n {
				if math.Float32bits(got[i+1]) != math.Float32bits(want[i+1]) {
					t.Fatalf("output %d = %v, want %v", i, got[i+1], want[i+1])
				}
			}
		})
	}
}
