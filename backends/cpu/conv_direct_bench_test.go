package cpu

import (
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// BenchmarkConv measures float32 Conv kernels (constant weights, bias,
// Relu fused) on the shapes of the benchmark CNN, of the PP-OCR
// classifier and a few others, and reports GFLOPS: "direct" is the path
// the kernel takes (the direct kernels where directTakes accepts the
// shape), "im2col" the packed SGEMM's, with the filters packed per call
// where the load packed them only for the direct kernels.
func BenchmarkConv(b *testing.B) {
	for _, s := range []struct {
		name string
		c    directCase
	}{
		{"cnn1_3to16_32x32", directCase{xs: []int{1, 3, 32, 32}, ws: []int{16, 3, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"cnn2_16to32_16x16", directCase{xs: []int{1, 16, 16, 16}, ws: []int{32, 16, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"s2_3to8_48x192", directCase{xs: []int{1, 3, 48, 192}, ws: []int{8, 3, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}}},
		{"s2_16to32_32x32", directCase{xs: []int{1, 16, 32, 32}, ws: []int{32, 16, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}}},
		{"32to64_16x16", directCase{xs: []int{1, 32, 16, 16}, ws: []int{64, 32, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"64to64_16x16", directCase{xs: []int{1, 64, 16, 16}, ws: []int{64, 64, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"112to64_14x14", directCase{xs: []int{1, 112, 14, 14}, ws: []int{64, 112, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"32to32_8x8", directCase{xs: []int{1, 32, 8, 8}, ws: []int{32, 32, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"16to16_12x12", directCase{xs: []int{1, 16, 12, 12}, ws: []int{16, 16, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"128to128_14x14", directCase{xs: []int{1, 128, 14, 14}, ws: []int{128, 128, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"128to128_16x16", directCase{xs: []int{1, 128, 16, 16}, ws: []int{128, 128, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"256to256_8x8", directCase{xs: []int{1, 256, 8, 8}, ws: []int{256, 256, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"512to64_16x16", directCase{xs: []int{1, 512, 16, 16}, ws: []int{64, 512, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"64to64_56x56", directCase{xs: []int{1, 64, 56, 56}, ws: []int{64, 64, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"s2_64to64_56x56", directCase{xs: []int{1, 64, 56, 56}, ws: []int{64, 64, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}}},
		{"64to64_256x256", directCase{xs: []int{1, 64, 256, 256}, ws: []int{64, 64, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"512to512_7x7", directCase{xs: []int{1, 512, 7, 7}, ws: []int{512, 512, 3, 3}, pads: []int64{1, 1, 1, 1}}},
		{"8to24_24x40_5x5", directCase{xs: []int{1, 8, 24, 40}, ws: []int{24, 8, 5, 5}, pads: []int64{2, 2, 2, 2}}},
	} {
		for _, path := range []string{"direct", "im2col"} {
			b.Run(s.name+"/"+path, func(b *testing.B) {
				c := s.c
				c.bias, c.act = true, model.ActRelu
				k, ins, out := buildDirectCase(b, c, 3, nil)
				if path == "im2col" {
					k.dw32 = nil
				}
				out.data = alignedBytes(4 * out.numel())
				outs := []*tensor{out}
				b.ReportAllocs()
				for b.Loop() {
					if err := k.run(ins, outs); err != nil {
						b.Fatal(err)
					}
				}
				flops := 2 * float64(out.numel()) * float64(nnProd(c.ws[1:]))
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}
