package cpu

import (
	"fmt"
	"testing"
)

// BenchmarkConvShapes measures float32 Conv with bias on one thread over
// a grid of CNN-stage shapes (kernel, stride, dilation, grouping), and
// reports the process's CPU time per call.
func BenchmarkConvShapes(b *testing.B) {
	type shape struct{ k, s, d, c, hw, groups int }
	shapes := []shape{
		{3, 2, 1, 256, 14, 256}, {3, 2, 2, 256, 14, 256}, {1, 2, 1, 256, 14, 256}, {5, 2, 2, 256, 14, 256},
		{5, 2, 1, 256, 14, 256}, {3, 2, 1, 256, 28, 256}, {3, 1, 1, 256, 14, 256}, {1, 1, 1, 256, 14, 256},
		{3, 1, 1, 256, 28, 256}, {7, 1, 2, 256, 28, 256}, {5, 1, 2, 256, 14, 256}, {7, 1, 1, 32, 56, 32}, {3, 1, 1, 512, 7, 512}, {5, 1, 1, 512, 9, 512},
		{3, 2, 1, 32, 56, 32}, {7, 2, 1, 32, 56, 32}, {3, 2, 1, 96, 20, 96}, {3, 1, 1, 96, 10, 96},
		{1, 2, 1, 16, 112, 4}, {1, 2, 1, 128, 28, 4}, {1, 2, 1, 64, 56, 1}, {1, 2, 1, 8, 112, 1},
		{1, 1, 1, 16, 112, 4}, {3, 1, 1, 512, 7, 1}, {1, 1, 1, 512, 7, 1}, {3, 2, 1, 512, 7, 1},
		{3, 2, 1, 64, 56, 1}, {7, 2, 1, 64, 56, 1}, {3, 1, 1, 128, 28, 4}, {5, 1, 1, 128, 28, 4},
		{3, 2, 2, 512, 7, 1}, {3, 1, 2, 512, 7, 1}, {5, 2, 1, 512, 7, 1}, {3, 2, 1, 128, 28, 4}, {3, 2, 2, 128, 28, 4},
		{5, 2, 1, 128, 28, 4}, {5, 2, 2, 128, 28, 4}, {7, 2, 1, 128, 28, 4}, {5, 1, 1, 256, 28, 256}, {7, 1, 1, 256, 28, 256},
		{1, 1, 1, 256, 7, 1}, {1, 1, 1, 1024, 7, 1}, {1, 2, 1, 512, 14, 1}, {1, 1, 1, 128, 8, 1}, {1, 1, 1, 512, 4, 1},
	}
	for _, s := range shapes {
		kind := fmt.Sprintf("g%d", s.groups)
		if s.groups == 1 {
			kind = "dense"
		} else if s.groups == s.c {
			kind = "dw"
		}
		name := fmt.Sprintf("k%d_s%d_d%d_%s_c%d_%d", s.k, s.s, s.d, kind, s.c, s.hw)
		b.Run(name, func(b *testing.B) {
			p := int64(s.d * (s.k - 1) / 2)
			c := directCase{xs: []int{1, s.c, s.hw, s.hw}, ws: []int{s.c, s.c / s.groups, s.k, s.k},
				strides: []int64{int64(s.s), int64(s.s)}, dils: []int64{int64(s.d), int64(s.d)},
				pads: []int64{p, p, p, p}, group: s.groups, bias: true}
			k, ins, out := buildDirectCase(b, c, 3, nil)
			out.data = alignedBytes(4 * out.numel())
			outs := []*tensor{out}
			b.ReportAllocs()
			c0 := cpuTime()
			for b.Loop() {
				if err := k.run(ins, outs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e3, "cpu-us/op")
		})
	}
}
