package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/model"
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

// BenchmarkConvGroupedPointwise measures float32 1×1 Convs with bias and
// Relu of few channels a group (op_conv_pwgroup.go) on one thread, by
// input and output channels, groups, plane side and stride.
func BenchmarkConvGroupedPointwise(b *testing.B) {
	type shape struct{ in, out, groups, hw, s int }
	for _, s := range []shape{{16, 16, 4, 112, 1}, {8, 8, 1, 112, 2}, {8, 8, 1, 56, 1}, {16, 16, 1, 56, 1}, {32, 32, 2, 56, 1}, {64, 64, 8, 56, 1}, {256, 256, 16, 28, 1},
		{16, 64, 4, 56, 1}, {16, 128, 4, 56, 1}, {32, 128, 4, 28, 1}, {64, 128, 4, 28, 2}, {240, 240, 3, 28, 1}} {
		b.Run(fmt.Sprintf("i%d_o%d_g%d_%d_s%d", s.in, s.out, s.groups, s.hw, s.s), func(b *testing.B) {
			c := directCase{xs: []int{1, s.in, s.hw, s.hw}, ws: []int{s.out, s.in / s.groups, 1, 1},
				strides: []int64{int64(s.s), int64(s.s)}, group: s.groups, bias: true, act: model.ActRelu}
			k, ins, out := buildDirectCase(b, c, 1, nil)
			out.data = alignedBytes(4 * out.numel())
			outs := []*tensor{out}
			for b.Loop() {
				if err := k.run(ins, outs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
