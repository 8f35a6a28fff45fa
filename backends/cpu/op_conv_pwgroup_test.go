package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// pwGroupCases are 1×1 Convs of few channels a group: unit strides and
// strided (2 and 3, by rows and columns, 1-D to 3-D), with and without
// bias and activation, tails of positions past the vector widths, and
// shapes the path leaves to the others.
func pwGroupCases() []directCase {
	return []directCase{
		{xs: []int{1, 16, 112, 112}, ws: []int{16, 4, 1, 1}, group: 4, bias: true, direct: true},
		{xs: []int{1, 16, 112, 112}, ws: []int{16, 4, 1, 1}, group: 4, strides: []int64{2, 2}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{2, 12, 9, 11}, ws: []int{24, 3, 1, 1}, group: 4, bias: true, act: model.ActSigmoid, direct: true},
		{xs: []int{1, 6, 7, 5}, ws: []int{9, 2, 1, 1}, group: 3, direct: true},
		{xs: []int{2, 8, 13, 17}, ws: []int{8, 8, 1, 1}, strides: []int64{1, 2}, bias: true, act: model.ActClip, params: []float32{-0.5, 0.5}, direct: true},
		{xs: []int{1, 32, 20, 21}, ws: []int{32, 16, 1, 1}, group: 2, strides: []int64{3, 2}, bias: true, direct: true},
		{xs: []int{1, 20, 30, 30}, ws: []int{128, 5, 1, 1}, group: 4, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 28, 700}, ws: []int{28, 7, 1}, group: 4, bias: true, direct: true},
		{xs: []int{1, 4, 5, 6, 7}, ws: []int{8, 2, 1, 1, 1}, group: 2, strides: []int64{1, 2, 1}, bias: true, direct: true},
		{xs: []int{1, 26, 9, 9}, ws: []int{26, 13, 1, 1}, group: 2, bias: true, direct: true, dynamic: true},
		// Not taken: depthwise, more inputs or outputs a group than the
		// path takes, padding, a 3×3 window, fewer positions than a vector.
		{xs: []int{1, 8, 9, 9}, ws: []int{8, 1, 1, 1}, group: 8, bias: true},
		{xs: []int{1, 64, 9, 9}, ws: []int{64, 32, 1, 1}, group: 2, bias: true},
		{xs: []int{1, 16, 9, 9}, ws: []int{128, 8, 1, 1}, group: 2, bias: true},
		{xs: []int{1, 8, 9, 9}, ws: []int{8, 4, 1, 1}, group: 2, pads: []int64{1, 1, 1, 1}, bias: true},
		{xs: []int{1, 8, 9, 9}, ws: []int{8, 4, 3, 3}, group: 2, bias: true},
		{xs: []int{1, 8, 3, 5}, ws: []int{8, 4, 1, 1}, group: 2, bias: true},
	}
}

// TestConvGroupedPointwise checks that the grouped 1×1 path takes the
// cases it should, against the reference convolution on one and two
// threads with guard cells around the outputs, and that it allocates
// nothing after its first call.
func TestConvGroupedPointwise(t *testing.T) { checkConvGroupedPointwise(t) }

// checkConvGroupedPointwise runs TestConvGroupedPointwise's checks with
// the kernels the build and CPU select.
func checkConvGroupedPointwise(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for i, c := range pwGroupCases() {
		t.Run(c.String(), func(t *testing.T) {
			k, ins, out := buildDirectCase(t, c, uint64(i+1), nil)
			group := max(c.group, 1)
			// Builds and CPUs without the assembly kernels, or with
			// fewer input channels in them, leave the path to the SGEMM.
			want := c.direct && c.ws[1] <= pwGroupKernelC()
			if took := pwGroupTakes(&k.g, c.ws[1], c.ws[0]/group); took != want {
				t.Fatalf("grouped 1×1 path taken: %t, want %t", took, want)
			}
			ref := directCaseWant(k, c, ins, out)
			got := runGuarded(t, k, ins, out)
			nnClose(t, "one thread", got, ref, 1e-5)
			k2, ins2, out2 := buildDirectCase(t, c, uint64(i+1), pool)
			got2 := runGuarded(t, k2, ins2, out2)
			nnClose(t, "two threads", got2, ref, 1e-5)
			out.data = alignedBytes(4 * out.numel())
			outs := []*tensor{out}
			if allocs := testing.AllocsPerRun(5, func() { _ = k.run(ins, outs) }); allocs != 0 {
				t.Errorf("allocations per call = %v, want 0", allocs)
			}
		})
	}
}
