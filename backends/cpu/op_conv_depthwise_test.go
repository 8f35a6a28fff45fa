package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// TestDepthwiseConvRandom runs random depthwise geometries (one or two
// spatial dims, strides 1 to 3, dilations, kernels 1×1 to 7×7, pads on
// either side, one to three filters per channel) through dwPlan and
// dwTilePlan (one filter per channel, planes of the tile's size) and
// checks them against the reference convolution with guard cells around
// the output, and bit for bit on two threads against one.
func TestDepthwiseConvRandom(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	r := nnRng(21)
	ran := 0
	for ran < 150 {
		oneD := r.IntN(4) == 0
		kh, kw := 1+r.IntN(7), 1+r.IntN(7)
		sh, sw := 1+r.IntN(3), 1+r.IntN(3)
		dh, dw := 1+r.IntN(2), 1+r.IntN(3)
		pads := []int64{int64(r.IntN(kh)), int64(r.IntN(kw)), int64(r.IntN(kh)), int64(r.IntN(kw))}
		ch, mult := 1+r.IntN(12), 1+r.IntN(3)
		if r.IntN(3) > 0 {
			mult = 1
		}
		c := directCase{
			xs:      []int{1 + r.IntN(2), ch, 1 + r.IntN(20), 1 + r.IntN(50)},
			ws:      []int{ch * mult, 1, kh, kw},
			strides: []int64{int64(sh), int64(sw)},
			dils:    []int64{int64(dh), int64(dw)},
			pads:    pads,
			group:   ch,
			bias:    r.IntN(2) == 0,
		}
		if oneD {
			c.xs, c.ws = []int{c.xs[0], ch, c.xs[3]}, []int{ch * mult, 1, kw}
			c.strides, c.dils, c.pads = []int64{int64(sw)}, []int64{int64(dw)}, []int64{pads[1], pads[3]}
		}
		switch r.IntN(3) {
		case 0:
			c.act = model.ActRelu
		case 1:
			c.act = model.ActHardSwish
		}
		nd := len(c.xs) - 2
		ok := true
		for j := range nd {
			if c.xs[2+j]+int(c.pads[j]+c.pads[j+nd]) < (c.ws[2+j]-1)*int(c.dils[j])+1 {
				ok = false
			}
		}
		if !ok {
			continue
		}
		ran++
		k, ins, out := buildDirectCase(t, c, uint64(ran), nil)
		if !dwFits(&k.g) {
			t.Fatalf("%v: not taken by dwPlan", c)
		}
		got := runGuarded(t, k, ins, out)
		var b []float32
		if c.bias {
			b = ins[2].f32()
		}
		s, d, pb := make([]int, nd), make([]int, nd), make([]int, nd)
		for j := range nd {
			s[j], d[j], pb[j] = int(c.strides[j]), int(c.dils[j]), int(c.pads[j])
		}
		want := refConv(ins[0].f32(), c.xs, ins[1].f32(), c.ws, b, ch, s, d, pb, out.shape[2:])
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
		nnClose(t, c.String(), got, want, 1e-5)
		// Twice, so that the second call runs on the buffers the first
		// left, then on two threads.
		again := runGuarded(t, k, ins, out)
		k2, ins2, out2 := buildDirectCase(t, c, uint64(ran), pool)
		two := runGuarded(t, k2, ins2, out2)
		for j := range got {
			if math.Float32bits(got[j]) != math.Float32bits(again[j]) || math.Float32bits(got[j]) != math.Float32bits(two[j]) {
				t.Fatalf("%v: element %d: %v, %v on a second call, %v on two threads", c, j, got[j], again[j], two[j])
			}
		}
	}
}

// TestDepthwiseConvShapes runs the depthwise shapes of PP-OCRv4 and of
// mobile CNNs, large enough to split across two threads, and checks one
// thread against two bit for bit and against the reference.
func TestDepthwiseConvShapes(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	for i, c := range []directCase{
		{xs: []int{1, 32, 160, 160}, ws: []int{32, 1, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, group: 32, bias: true, act: model.ActHardSwish},
		{xs: []int{1, 96, 40, 40}, ws: []int{96, 1, 3, 3}, pads: []int64{1, 1, 1, 1}, group: 96, bias: true, act: model.ActRelu},
		{xs: []int{2, 24, 20, 20}, ws: []int{24, 1, 5, 5}, strides: []int64{2, 2}, pads: []int64{2, 2, 2, 2}, group: 24, bias: true},
		{xs: []int{1, 16, 30, 31}, ws: []int{16, 1, 7, 7}, pads: []int64{3, 3, 3, 3}, group: 16, bias: true},
		{xs: []int{1, 8, 300}, ws: []int{8, 1, 9}, strides: []int64{2}, pads: []int64{4, 4}, group: 8},
	} {
		t.Run(c.String(), func(t *testing.T) {
			k, ins, out := buildDirectCase(t, c, uint64(i+1), nil)
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
			want := refConv(ins[0].f32(), c.xs, ins[1].f32(), c.ws, b, c.group, s, d, pb, out.shape[2:])
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
			nnClose(t, "depthwise", got, want, 1e-5)
			k2, ins2, out2 := buildDirectCase(t, c, uint64(i+1), pool)
			two := runGuarded(t, k2, ins2, out2)
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(two[j]) {
					t.Fatalf("element %d: %v on one thread, %v on two", j, got[j], two[j])
				}
			}
		})
	}
}

// TestDepthwiseConvAllocs checks that depthwise Conv (here on the tiles)
// allocates nothing after its first call, on one thread and on two.
func TestDepthwiseConvAllocs(t *testing.T) {
	pool := newWorkerPool(2)
	defer pool.close()
	c := directCase{xs: []int{1, 32, 64, 64}, ws: []int{32, 1, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, group: 32, bias: true, act: model.ActHardSwish}
	for _, p := range []*workerPool{nil, pool} {
		k, ins, out := buildDirectCase(t, c, 1, p)
		out.data = alignedBytes(4 * out.numel())
		outs := []*tensor{out}
		if err := k.run(ins, outs); err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(10, func() { _ = k.run(ins, outs) }); got != 0 {
			t.Errorf("threads %d: %v allocations per run", p.size(), got)
		}
	}
}
