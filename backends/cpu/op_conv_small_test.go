package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// TestConvSmall checks the small-plane path against the reference
// convolution (activation applied in float32), on one and two threads,
// with guard cells around the outputs: that it is taken where it must
// be, and not on wide rows, few channels, unknown input shapes or
// windows the direct kernels take.
func TestConvSmall(t *testing.T) {
	cases := []struct {
		c    directCase
		want bool
	}{
		{directCase{xs: []int{1, 128, 7, 7}, ws: []int{128, 128, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu}, true},
		{directCase{xs: []int{2, 160, 7, 7}, ws: []int{64, 160, 3, 3}, pads: []int64{2, 2, 2, 2}, dils: []int64{2, 2}, bias: true}, true},
		{directCase{xs: []int{1, 32, 14, 14}, ws: []int{80, 32, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 0, 1, 1}, act: model.ActHardSwish}, true},
		{directCase{xs: []int{1, 64, 14, 14}, ws: []int{128, 32, 3, 3}, group: 2, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, bias: true}, true},
		{directCase{xs: []int{1, 40, 9, 5}, ws: []int{70, 40, 2, 2}, strides: []int64{2, 2}, pads: []int64{0, 1, 1, 0}, bias: true, act: model.ActClip, params: []float32{-0.5, 0.5}}, true},
		{directCase{xs: []int{1, 512, 7, 7}, ws: []int{64, 512, 1, 1}, bias: true, act: model.ActRelu}, true},
		{directCase{xs: []int{2, 1024, 5, 3}, ws: []int{192, 512, 1, 1}, group: 2}, true},
		// Not taken: wide rows, few channels, the input shape unknown at
		// load, 1×1 windows of few channels, of a stride or padding or over
		// positions that fill whole panels, windows the direct kernels or
		// the short 1-D path take.
		{directCase{xs: []int{1, 16, 9}, ws: []int{64, 16, 3}, strides: []int64{2}, pads: []int64{1, 1}, bias: true}, false},
		{directCase{xs: []int{1, 256, 7, 7}, ws: []int{96, 256, 1, 1}, bias: true, act: model.ActSigmoid}, false},
		{directCase{xs: []int{1, 512, 4, 4}, ws: []int{64, 512, 1, 1}, bias: true}, false},
		{directCase{xs: []int{1, 512, 14, 14}, ws: []int{64, 512, 1, 1}, strides: []int64{2, 2}}, false},
		{directCase{xs: []int{1, 512, 7, 7}, ws: []int{64, 512, 1, 1}, pads: []int64{1, 1, 1, 1}}, false},
		{directCase{xs: []int{1, 64, 7, 7}, ws: []int{128, 64, 3, 3}, pads: []int64{1, 1, 1, 1}}, false},
		{directCase{xs: []int{1, 128, 7, 20}, ws: []int{128, 128, 3, 3}, pads: []int64{1, 1, 1, 1}}, false},
		{directCase{xs: []int{1, 128, 7, 7}, ws: []int{32, 128, 3, 3}, pads: []int64{1, 1, 1, 1}}, false},
		{directCase{xs: []int{1, 128, 7, 7}, ws: []int{128, 128, 3, 3}, pads: []int64{1, 1, 1, 1}, dynamic: true}, false},
		{directCase{xs: []int{1, 72, 32, 8}, ws: []int{72, 72, 3, 1}, bias: true}, false},
	}
	pool := newWorkerPool(2)
	defer pool.close()
	for i, tc := range cases {
		c := tc.c
		t.Run(c.String(), func(t *testing.T) {
			for _, p := range []*workerPool{nil, pool} {
				k, ins, out := buildDirectCase(t, c, uint64(i+1), p)
				if took := k.smallFor(ins[1].shape) != nil; took != tc.want {
					t.Fatalf("small-plane path taken: %t, want %t", took, tc.want)
				}
				got := runGuarded(t, k, ins, out)
				nnClose(t, "small", got, directCaseWant(k, c, ins, out), 1e-4) // sums of up to 1440 products
			}
		})
	}
}

// TestConvSmallAllocs checks that the small-plane path allocates
// nothing after its first call.
func TestConvSmallAllocs(t *testing.T) {
	c := directCase{xs: []int{1, 128, 7, 7}, ws: []int{128, 128, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu}
	k, ins, out := buildDirectCase(t, c, 3, nil)
	if k.smallFor(ins[1].shape) == nil {
		t.Fatal("small-plane path not taken")
	}
	out.data = alignedBytes(4 * out.numel())
	outs := []*tensor{out}
	if err := k.run(ins, outs); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = k.run(ins, outs) }); n != 0 {
		t.Fatalf("%v allocations per call, want 0", n)
	}
}

// TestTransposeInto checks the transpose (its assembly blocks where the
// CPU has AVX2, their edges, and the Go loops) on sizes around its block
// of 8, with the cell past the end as a guard.
func TestTransposeInto(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {1, 9}, {7, 1}, {8, 8}, {9, 17}, {49, 512}, {512, 49}, {16, 3}, {8, 9}, {17, 8}, {24, 40}, {7, 64}} {
		r, c := sz[0], sz[1]
		src := make([]float32, r*c)
		for i := range src {
			src[i] = float32(i)
		}
		dst := make([]float32, r*c+1)
		dst[r*c] = -1
		transposeInto(dst, src, r, c)
		for i := range r {
			for j := range c {
				if got, want := dst[j*r+i], src[i*c+j]; got != want {
					t.Fatalf("%d×%d: dst[%d][%d] = %v, want %v", r, c, j, i, got, want)
				}
			}
		}
		if dst[r*c] != -1 {
			t.Fatalf("%d×%d: the cell past the end was written", r, c)
		}
	}
}
