package cpu

import (
	"fmt"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// buildAttention builds c's kernel on pool (nil: one thread) with Y as
// its only output, and sizes Y.
func buildAttention(tb testing.TB, c attnCase, pool *workerPool) (kernel, []*tensor, []*tensor) {
	tb.Helper()
	n, ins := c.inputs()
	n.Outputs = n.Outputs[:1]
	g := model.NewGraph()
	g.Opset = 24
	bc := &buildCtx{g: g, n: n, opset: 24, gemm: newGemmCtx(pool)}
	for i, t := range ins {
		vi := model.ValueInfo{}
		if t != nil {
			vi = model.ValueInfo{Name: n.Input(i), DType: t.dt, Shape: append([]int{}, t.shape...), RankKnown: true}
		}
		bc.in = append(bc.in, vi)
	}
	bc.out = []model.ValueInfo{{Name: "y", DType: ins[0].dt}}
	k, err := buildKernel(bc)
	if err != nil {
		tb.Fatal(err)
	}
	out := []*tensor{{dt: ins[0].dt}}
	if err := newOutShaper(bc, k).shapes(ins, out); err != nil {
		tb.Fatal(err)
	}
	out[0].data = alignedBytes(out[0].numel() * out[0].dt.Size())
	return k, ins, out
}

// BenchmarkAttention runs encoder-sized prefill and a decode step
// against a long cache, on one thread and on two.
func BenchmarkAttention(b *testing.B) {
	cases := []attnCase{
		{name: "encoder_b1_h12_s128_d64", rank: 3, b: 1, hq: 12, hkv: 12, sq: 128, skv: 128, d: 64, dv: 64, mask: []int{1, 1, 1, 128}},
		{name: "bert_b1_h12_s128_d32", rank: 3, b: 1, hq: 12, hkv: 12, sq: 128, skv: 128, d: 32, dv: 32, mask: []int{1, 1, 128, 128}},
		{name: "causal_b1_h8_s512_d64", rank: 4, b: 1, hq: 8, hkv: 8, sq: 512, skv: 512, d: 64, dv: 64, causal: true},
		{name: "decode_gqa_b1_h8_kv2_t1025_d64", rank: 4, b: 1, hq: 8, hkv: 2, sq: 1, skv: 1, d: 64, dv: 64, past: 1024},
		{name: "decode_gqa_b1_h32_kv8_t1024_d128", rank: 4, b: 1, hq: 32, hkv: 8, sq: 1, skv: 1, d: 128, dv: 128, past: 1023},
	}
	pool := newWorkerPool(2)
	defer pool.close()
	for _, c := range cases {
		for _, threads := range []int{1, 2} {
			p := pool
			if threads == 1 {
				p = nil
			}
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				k, ins, out := buildAttention(b, c, p)
				flops := 2 * c.b * c.hq * c.sq * (c.past + c.skv) * (c.d + c.dv)
				b.SetBytes(int64(flops)) // reported MB/s reads as MFLOP/s
				b.ReportAllocs()
				for b.Loop() {
					if err := k.run(ins, out); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
