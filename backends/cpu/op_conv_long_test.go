package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// TestConvLong checks long strided windows (the long path: one product
// over the signal read with overlapping rows) against the reference
// convolution with guard cells around the output, one thread against
// two bit for bit, and that the path allocates nothing after its first
// call.
func TestConvLong(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for i, c := range []directCase{
		// The openWakeWord melspectrogram's filter bank: 1280 samples.
		{xs: []int{1, 1, 1280}, ws: []int{257, 1, 512}, strides: []int64{160}},
		// Silero VAD's framing, with pads and a bias.
		{xs: []int{2, 1, 640}, ws: []int{258, 1, 256}, strides: []int64{128}, pads: []int64{64, 64}, bias: true},
		// One frame, an activation, a 2-D form with unit rows.
		{xs: []int{1, 1, 100}, ws: []int{17, 1, 64}, strides: []int64{64}, pads: []int64{0, 3}, bias: true, act: model.ActRelu},
		{xs: []int{1, 1, 1, 700}, ws: []int{40, 1, 1, 96}, strides: []int64{1, 24}, pads: []int64{0, 5, 0, 5}, bias: true},
	} {
		t.Run(c.String(), func(t *testing.T) {
			k, ins, out := buildDirectCase(t, c, uint64(i+1), nil)
			if !k.longB.prepacked() || !longFits(&k.g) {
				t.Fatalf("long path taken: %t, %t; want true", k.longB.prepacked(), longFits(&k.g))
			}
			got := runGuarded(t, k, ins, out)
			nd := len(c.xs) - 2
			s, d, pb := make([]int, nd), make([]int, nd), make([]int, nd)
			for j := range nd {
				s[j], d[j], pb[j] = k.g.s[maxSpatial-nd+j], k.g.d[maxSpatial-nd+j], k.g.pb[maxSpatial-nd+j]
			}
			var b []float32
			if c.bias {
				b = ins[2].f32()
			}
			want := refConv(ins[0].f32(), c.xs, ins[1].f32(), c.ws, b, 1, s, d, pb, out.shape[2:])
			if c.act == model.ActRelu {
				for j, v := range want {
					want[j] = max(v, 0)
				}
			}
			nnClose(t, "long", got, want, 1e-5)
			k2, ins2, out2 := buildDirectCase(t, c, uint64(i+1), pool)
			two := runGuarded(t, k2, ins2, out2)
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(two[j]) {
					t.Fatalf("element %d: %v on one thread, %v on two", j, got[j], two[j])
				}
			}
			out2.data = alignedBytes(4 * out2.numel())
			outs := []*tensor{out2}
			if got := testing.AllocsPerRun(5, func() { _ = k2.run(ins2, outs) }); got != 0 {
				t.Errorf("%v allocations per run", got)
			}
		})
	}
}

// TestConvLongDeclines checks that windows the long path does not fit
// (short, dense strides, dilated, several input channels) keep the other
// paths.
func TestConvLongDeclines(t *testing.T) {
	for _, c := range []directCase{
		{xs: []int{1, 1, 400}, ws: []int{8, 1, 32}, strides: []int64{16}},
		{xs: []int{1, 1, 400}, ws: []int{8, 1, 128}, strides: []int64{8}},
		{xs: []int{1, 1, 400}, ws: []int{8, 1, 64}, strides: []int64{32}, dils: []int64{2}},
		{xs: []int{1, 2, 400}, ws: []int{8, 2, 64}, strides: []int64{32}},
	} {
		k, _, _ := buildDirectCase(t, c, 1, nil)
		if k.longB.prepacked() {
			t.Errorf("%v: long path taken", c)
		}
	}
}
