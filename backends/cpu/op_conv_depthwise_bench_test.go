package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// BenchmarkConvDepthwise measures float32 depthwise Conv (bias and
// HardSwish fused) on the shapes of PP-OCRv4's detector and recogniser
// and of small mobile CNNs, and reports GFLOPS (of wall time) and the process's CPU time per call.
func BenchmarkConvDepthwise(b *testing.B) {
	for _, s := range []struct {
		name string
		c    directCase
	}{
		{"3x3s1_16c_160", directCase{xs: []int{1, 16, 160, 160}, ws: []int{16, 1, 3, 3}, pads: []int64{1, 1, 1, 1}, group: 16}},
		{"5x5s1_192c_20", directCase{xs: []int{1, 192, 20, 20}, ws: []int{192, 1, 5, 5}, pads: []int64{2, 2, 2, 2}, group: 192}},
		{"3x3s2_32c_160", directCase{xs: []int{1, 32, 160, 160}, ws: []int{32, 1, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, group: 32}},
		{"3x3s2_48c_80", directCase{xs: []int{1, 48, 80, 80}, ws: []int{48, 1, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, group: 48}},
		{"3x3s1_96c_40", directCase{xs: []int{1, 96, 40, 40}, ws: []int{96, 1, 3, 3}, pads: []int64{1, 1, 1, 1}, group: 96}},
		{"5x5s2_192c_20", directCase{xs: []int{1, 192, 20, 20}, ws: []int{192, 1, 5, 5}, strides: []int64{2, 2}, pads: []int64{2, 2, 2, 2}, group: 192}},
		{"5x5s1_192c_10", directCase{xs: []int{1, 192, 10, 10}, ws: []int{192, 1, 5, 5}, pads: []int64{2, 2, 2, 2}, group: 192}},
		{"3x3s1_64c_12x80", directCase{xs: []int{1, 64, 12, 80}, ws: []int{64, 1, 3, 3}, pads: []int64{1, 1, 1, 1}, group: 64}},
		{"5x5s1_240c_12x80", directCase{xs: []int{1, 240, 12, 80}, ws: []int{240, 1, 5, 5}, pads: []int64{2, 2, 2, 2}, group: 240}},
		{"5x5s1_480c_6x80", directCase{xs: []int{1, 480, 6, 80}, ws: []int{480, 1, 5, 5}, pads: []int64{2, 2, 2, 2}, group: 480}},
		{"3x3s1_64c_24x160", directCase{xs: []int{1, 64, 24, 160}, ws: []int{64, 1, 3, 3}, pads: []int64{1, 1, 1, 1}, group: 64}},
		{"3x3s1_128c_12x160", directCase{xs: []int{1, 128, 12, 160}, ws: []int{128, 1, 3, 3}, pads: []int64{1, 1, 1, 1}, group: 128}},
		{"7x7s1_32c_56", directCase{xs: []int{1, 32, 56, 56}, ws: []int{32, 1, 7, 7}, pads: []int64{3, 3, 3, 3}, group: 32}},
	} {
		b.Run(s.name, func(b *testing.B) {
			c := s.c
			c.bias, c.act = true, model.ActHardSwish
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
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
			flops := 2 * float64(out.numel()) * float64(nnProd(c.ws[1:]))
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}
