package bench

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// tokenFeeds are one new token's inputs after a cache of ctx random
// positions, as the ONNX Runtime comparison feeds them.
func tokenFeeds(c testmodels.DecoderConfig, ctx int) []payload.Dynamic {
	r := rand.New(rand.NewPCG(22, uint64(ctx)))
	feeds := []payload.Dynamic{
		payload.DynamicOf("input_ids", payload.Tensor[int64]{Shape: []int{1, 1}, Data: []int64{int64(r.IntN(c.Vocab))}}),
		payload.DynamicOf("position_ids", payload.Tensor[int64]{Shape: []int{1, 1}, Data: []int64{int64(ctx)}}),
	}
	for l := range c.Layers {
		for kv := range 2 {
			shape := []int{1, c.KVHeads, ctx, c.Hidden / c.Heads}
			x := make([]float32, payload.NumElems(shape))
			for i := range x {
				x[i] = r.Float32()*2 - 1
			}
			feeds = append(feeds, payload.DynamicOf(testmodels.DecoderPast(l, kv), payload.Tensor[float32]{Shape: shape, Data: x}))
		}
	}
	return feeds
}

// BenchmarkDecoderToken times one token of the generated Llama-style
// decoder in each form on one thread after 128 and 1024 cached
// positions, the cache fed afresh each call as TestTransformersVsORT
// feeds it, without ONNX Runtime (for profiles).
func BenchmarkDecoderToken(b *testing.B) {
	for _, f := range testmodels.Forms {
		for _, ctx := range []int{128, 1024} {
			b.Run(f.String()+"/ctx"+strconv.Itoa(ctx), func(b *testing.B) {
				art, err := artifacts.FromBytes(testmodels.LlamaDecoder.Decoder(f), "generated")
				if err != nil {
					b.Fatal(err)
				}
				m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
				if err == nil {
					err = m.Init()
				}
				if err != nil {
					b.Fatal(err)
				}
				defer m.Close()
				in := &payload.Multi{Tensors: tokenFeeds(testmodels.LlamaDecoder, ctx)}
				var out payload.Multi
				if err := m.InferOne(in, &out); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if err := m.InferOne(in, &out); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
