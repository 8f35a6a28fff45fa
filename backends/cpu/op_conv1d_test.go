package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// conv1dCases are 1-D Convs of few output positions: Silero VAD's STFT
// (which the long path takes) and encoder, and others with dilations, asymmetric pads and positions
// past the threshold.
func conv1dCases() []directCase {
	return []directCase{
		{xs: []int{1, 1, 640}, ws: []int{258, 1, 256}, strides: []int64{128}, direct: true},
		{xs: []int{1, 129, 4}, ws: []int{128, 129, 3}, pads: []int64{1, 1}, bias: true, act: model.ActRelu, direct: true, dynamic: true},
		{xs: []int{1, 128, 4}, ws: []int{64, 128, 3}, strides: []int64{2}, pads: []int64{1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 64, 2}, ws: []int{64, 64, 3}, strides: []int64{2}, pads: []int64{1, 1}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 64, 1}, ws: []int{128, 64, 3}, pads: []int64{1, 1}, bias: true, act: model.ActSigmoid, direct: true},
		{xs: []int{2, 3, 7}, ws: []int{21, 3, 3}, dils: []int64{2}, pads: []int64{2, 1}, bias: true, direct: true},
		{xs: []int{1, 5, 40}, ws: []int{17, 5, 7}, strides: []int64{5}, pads: []int64{3, 0}, direct: true},
		{xs: []int{1, 300, 8}, ws: []int{9, 300, 2}, strides: []int64{1}, act: model.ActRelu, direct: true},
		// Eight positions, which the direct kernels would take too.
		{xs: []int{2, 3, 9}, ws: []int{21, 3, 3}, dils: []int64{2}, pads: []int64{2, 1}, bias: true, direct: true},
		// Not taken: more positions than conv1dShortMaxN, more positions
		// than channels, groups, 2-D, no input channels.
		{xs: []int{1, 4, 12}, ws: []int{16, 4, 3}, bias: true},
		{xs: []int{1, 4, 6}, ws: []int{3, 4, 3}, bias: true},
		{xs: []int{1, 4, 6}, ws: []int{16, 2, 3}, group: 2},
		{xs: []int{1, 4, 3, 6}, ws: []int{16, 4, 3, 3}},
		{xs: []int{1, 0, 4}, ws: []int{16, 0, 3}, bias: true},
		// Pointwise and strided 1×1 filters.
		{xs: []int{1, 258, 8}, ws: []int{16, 258, 1}, bias: true, direct: true},
		{xs: []int{1, 16, 8}, ws: []int{16, 16, 1}, strides: []int64{2}, bias: true, act: model.ActRelu, direct: true},
		{xs: []int{1, 64, 1}, ws: []int{1, 64, 1}, bias: true, act: model.ActSigmoid, direct: true},
	}
}

// TestConv1dShort checks the transposed path against the reference
// convolution, and bit for bit against the im2col path, on one and two
// threads, with guard cells around the outputs; then that it allocates
// nothing after its first call.
func TestConv1dShort(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for i, c := range conv1dCases() {
		t.Run(c.String(), func(t *testing.T) {
			k, ins, out := buildDirectCase(t, c, uint64(i+1), nil)
			var pa gemmA
			if pw := k.packedFor(ins[1].shape); pw != nil {
				pa = pw[0]
			}
			// Long strided windows go to the long path (op_conv_long.go);
			// other windows the short path fits go to it, before the
			// direct kernels.
			long := k.longB.prepacked() && longFits(&k.g)
			short := c.direct && !long
			if took := k.short.takes(k, &k.g, pa) && !long; took != short {
				t.Fatalf("short path taken: %t, want %t", took, short)
			}
			got := runGuarded(t, k, ins, out)
			if took := k.short.wt != nil; took != short {
				t.Fatalf("short path ran: %t, want %t", took, short)
			}
			want := directCaseWant(k, c, ins, out)
			nnClose(t, "short", got, want, 1e-5)
			// The im2col path (the filters unpacked, which it takes
			// instead) gives the same bits.
			pw := k.pw
			k.pw = nil
			ref := runGuarded(t, k, ins, out)
			k.pw = pw
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(ref[j]) {
					t.Fatalf("element %d: short %v, im2col %v", j, got[j], ref[j])
				}
			}
			k2, ins2, out2 := buildDirectCase(t, c, uint64(i+1), pool)
			got2 := runGuarded(t, k2, ins2, out2)
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(got2[j]) {
					t.Fatalf("element %d: %v on one thread, %v on two", j, got[j], got2[j])
				}
			}
			out.data = alignedBytes(4 * out.numel())
			outs := []*tensor{out}
			if err := k.run(ins, outs); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(10, func() { _ = k.run(ins, outs) }); n != 0 {
				t.Errorf("got %v allocations per run, want 0", n)
			}
		})
	}
}
