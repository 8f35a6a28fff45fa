//go:build ort

package ortcheck

import (
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// encoderFeeds draws the encoder's inputs: embeddings in [-1, 1] and a
// mask whose second item pads its last quarter.
func encoderFeeds(r *rand.Rand, c testmodels.EncoderConfig, batch int) []payload.Dynamic {
	mask := make([]int64, batch*c.Seq)
	for b := range batch {
		n := c.Seq
		if b%2 == 1 {
			n = c.Seq * 3 / 4
		}
		for i := range n {
			mask[b*c.Seq+i] = 1
		}
	}
	return []payload.Dynamic{
		{Name: "x", DType: payload.Float32, Shape: []int{batch, c.Seq, c.Hidden}, Data: fill(r, payload.Float32, batch*c.Seq*c.Hidden, -1, 1, false)},
		payload.DynamicOf("attention_mask", payload.Tensor[int64]{Shape: []int{batch, c.Seq}, Data: mask}),
	}
}

// decoderFeeds draws the decoder's inputs for s new tokens after a cache
// of p positions holding random keys and values.
func decoderFeeds(r *rand.Rand, c testmodels.DecoderConfig, p, s int) []payload.Dynamic {
	ids, pos := make([]int64, s), make([]int64, s)
	for i := range s {
		ids[i], pos[i] = int64(r.IntN(c.Vocab)), int64(p+i)
	}
	feeds := []payload.Dynamic{
		payload.DynamicOf("input_ids", payload.Tensor[int64]{Shape: []int{1, s}, Data: ids}),
		payload.DynamicOf("position_ids", payload.Tensor[int64]{Shape: []int{1, s}, Data: pos}),
	}
	hd := c.Hidden / c.Heads
	for l := range c.Layers {
		for kv := range 2 {
			shape := []int{1, c.KVHeads, p, hd}
			feeds = append(feeds, payload.Dynamic{Name: testmodels.DecoderPast(l, kv), DType: payload.Float32, Shape: shape,
				Data: fill(r, payload.Float32, payload.NumElems(shape), -1, 1, false)})
		}
	}
	return feeds
}

// TestGeneratedTransformers compares the generated BERT-style encoder and
// Llama-style decoder, in each of their three forms, with ONNX Runtime:
// the encoder at batch 2 with one padded item, the decoder on a prompt
// with an empty cache and on one token after a cache of 40 positions.
func TestGeneratedTransformers(t *testing.T) {
	enc, dec := testmodels.BERTEncoder, testmodels.LlamaDecoder
	for _, f := range testmodels.Forms {
		t.Run("encoder_"+f.String(), func(t *testing.T) {
			r := caseRand(t, "encoder")
			checkModel(t, enc.Encoder(f), "encoder_"+f.String(), [][]payload.Dynamic{encoderFeeds(r, enc, 2)}, 1e-4)
		})
		t.Run("decoder_"+f.String(), func(t *testing.T) {
			r := caseRand(t, "decoder")
			draws := [][]payload.Dynamic{decoderFeeds(r, dec, 0, 7), decoderFeeds(r, dec, 40, 1)}
			checkModel(t, dec.Decoder(f), "decoder_"+f.String(), draws, 1e-4)
		})
	}
}
