package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// TestIm2colRowRange checks im2colRowRange against the matching slice of
// im2colRow on random geometries and ranges, with guard cells after the
// range.
func TestIm2colRowRange(t *testing.T) {
	r := nnRng(31)
	for range 300 {
		var g geom
		g.reset(2)
		g.in[1], g.in[2] = 1+r.IntN(9), 1+r.IntN(30)
		g.k[1], g.k[2] = 1+r.IntN(3), 1+r.IntN(4)
		g.s[1], g.s[2] = 1+r.IntN(2), 1+r.IntN(3)
		g.d[1], g.d[2] = 1+r.IntN(2), 1+r.IntN(2)
		g.pb[1], g.pb[2], g.pe[1], g.pe[2] = r.IntN(3), r.IntN(3), r.IntN(3), r.IntN(3)
		eh := g.in[1] + g.pb[1] + g.pe[1] - (g.k[1]-1)*g.d[1]
		ew := g.in[2] + g.pb[2] + g.pe[2] - (g.k[2]-1)*g.d[2]
		if eh < 1 || ew < 1 {
			continue
		}
		g.out[1], g.out[2] = (eh-1)/g.s[1]+1, (ew-1)/g.s[2]+1
		outSz := g.out[1] * g.out[2]
		x := nnRand(r, g.in[1]*g.in[2])
		kh, kw := r.IntN(g.k[1]), r.IntN(g.k[2])
		full := make([]float32, outSz)
		im2colRow(&g, x, 0, kh, kw, full)
		c0 := r.IntN(outSz)
		c1 := c0 + 1 + r.IntN(outSz-c0)
		got := make([]float32, c1-c0+3)
		for i := range got {
			got[i] = 99
		}
		im2colRowRange(&g, x, 0, kh, kw, got, c0, c1)
		for i, v := range got {
			want := float32(99)
			if i < c1-c0 {
				want = full[c0+i]
			}
			if v != want {
				t.Fatalf("%+v tap (%d,%d) range [%d,%d): element %d is %v, want %v", g, kh, kw, c0, c1, i, v, want)
			}
		}
	}
}

// TestIm2colThreads runs the im2col path (the three packings: rows of
// whole panels from padded planes, whole panels, ragged rows) on one
// thread and on two, where the packing splits the panels, and checks
// the same bits and no allocations after the first call.
func TestIm2colThreads(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for i, c := range []directCase{
		{xs: []int{1, 16, 32, 32}, ws: []int{24, 16, 3, 3}, pads: []int64{1, 1, 1, 1}, bias: true, act: model.ActRelu},
		{xs: []int{1, 16, 33, 64}, ws: []int{24, 16, 3, 3}, strides: []int64{1, 2}, pads: []int64{1, 1, 1, 1}, bias: true},
		{xs: []int{2, 12, 30, 41}, ws: []int{20, 12, 3, 3}, strides: []int64{2, 2}, dils: []int64{1, 2}, pads: []int64{1, 2, 0, 1}, bias: true, act: model.ActHardSwish},
		{xs: []int{1, 72, 14, 4}, ws: []int{96, 72, 1, 3}, pads: []int64{0, 1, 0, 1}},
	} {
		t.Run(c.String(), func(t *testing.T) {
			k, ins, out := buildDirectCase(t, c, uint64(i+1), nil)
			k.dw32 = nil
			got := runGuarded(t, k, ins, out)
			k2, ins2, out2 := buildDirectCase(t, c, uint64(i+1), pool)
			k2.dw32 = nil
			two := runGuarded(t, k2, ins2, out2)
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(two[j]) {
					t.Fatalf("element %d: %v on one thread, %v on two", j, got[j], two[j])
				}
			}
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
			if k.ep != nil {
				w32 := make([]float32, len(want))
				for j, v := range want {
					w32[j] = float32(v)
				}
				k.ep.act.apply(w32)
				for j, v := range w32 {
					want[j] = float64(v)
				}
			}
			nnClose(t, "im2col", got, want, 1e-5)
			out2.data = alignedBytes(4 * out2.numel())
			outs := []*tensor{out2}
			if got := testing.AllocsPerRun(5, func() { _ = k2.run(ins2, outs) }); got != 0 {
				t.Errorf("%v allocations per run", got)
			}
		})
	}
}
