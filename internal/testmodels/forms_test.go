package testmodels_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// run loads model on the CPU backend and runs it once.
func run(t *testing.T, model []byte, feeds []payload.Dynamic) (payload.Multi, error) {
	t.Helper()
	art, err := artifacts.FromBytes(model, "generated")
	if err != nil {
		t.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := cpu.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		return payload.Multi{}, err
	}
	defer m.Close()
	if err := m.Init(); err != nil {
		t.Fatalf("Init: %v", err)
	}
	var out payload.Multi
	if err := m.InferOne(&payload.Multi{Tensors: feeds}, &out); err != nil {
		t.Fatalf("InferOne: %v", err)
	}
	return out, nil
}

func floats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

// relL2 is |got − want| / |want| over all elements.
func relL2(got, want []float32) float64 {
	var num, den float64
	for i := range want {
		d := float64(got[i]) - float64(want[i])
		num += d * d
		den += float64(want[i]) * float64(want[i])
	}
	return math.Sqrt(num / max(den, 1e-30))
}

// compareForms runs every form of a generated model on the same feeds and
// checks each output against the basic form's.
func compareForms(t *testing.T, build func(testmodels.Form) []byte, feeds []payload.Dynamic) {
	ref, err := run(t, build(testmodels.Basic), feeds)
	if err != nil {
		t.Fatalf("basic form: %v", err)
	}
	for _, f := range testmodels.Forms[1:] {
		got, err := run(t, build(f), feeds)
		if errors.Is(err, compute.ErrUnsupported) {
			t.Errorf("%s form: %v", f, err)
			continue
		} else if err != nil {
			t.Fatalf("%s form: %v", f, err)
		}
		for i, want := range ref.Tensors {
			g := got.Get(want.Name)
			if g == nil {
				t.Fatalf("%s form: no output %q", f, want.Name)
			}
			gv, _ := payload.Typed[float32](*g)
			wv, _ := payload.Typed[float32](want)
			if e := relL2(gv.Data, wv.Data); !(e <= 1e-4) {
				t.Errorf("%s form: output %d %q: relative L2 error %.2e against the basic form, want at most 1e-4", f, i, want.Name, e)
			}
		}
	}
}

// The three forms of the generated encoder compute the same function.
func TestEncoderFormsAgree(t *testing.T) {
	c := testmodels.EncoderConfig{Layers: 2, Seq: 16, Hidden: 64, Heads: 4, FFN: 128}
	r := rand.New(rand.NewPCG(1, 2))
	mask := make([]int64, 2*c.Seq)
	for i := range mask {
		mask[i] = 1
		if i >= c.Seq+c.Seq*3/4 {
			mask[i] = 0
		}
	}
	feeds := []payload.Dynamic{
		payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{2, c.Seq, c.Hidden}, Data: floats(r, 2*c.Seq*c.Hidden)}),
		payload.DynamicOf("attention_mask", payload.Tensor[int64]{Shape: []int{2, c.Seq}, Data: mask}),
	}
	compareForms(t, c.Encoder, feeds)
}

// decoderFeeds returns random feeds of decoder c for seq new tokens
// after past cached positions.
func decoderFeeds(c testmodels.DecoderConfig, r *rand.Rand, past, seq int) []payload.Dynamic {
	ids, pos := make([]int64, seq), make([]int64, seq)
	for i := range ids {
		ids[i], pos[i] = int64(r.IntN(c.Vocab)), int64(past+i)
	}
	feeds := []payload.Dynamic{
		payload.DynamicOf("input_ids", payload.Tensor[int64]{Shape: []int{1, seq}, Data: ids}),
		payload.DynamicOf("position_ids", payload.Tensor[int64]{Shape: []int{1, seq}, Data: pos}),
	}
	for l := range c.Layers {
		for kv := range 2 {
			shape := []int{1, c.KVHeads, past, c.Hidden / c.Heads}
			feeds = append(feeds, payload.DynamicOf(testmodels.DecoderPast(l, kv), payload.Tensor[float32]{Shape: shape, Data: floats(r, payload.NumElems(shape))}))
		}
	}
	return feeds
}

// The three forms of the generated decoder compute the same function, on
// a prompt with an empty cache and on new tokens after a cache.
func TestDecoderFormsAgree(t *testing.T) {
	c := testmodels.DecoderConfig{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, FFN: 96, Vocab: 100, MaxPos: 64}
	for _, tc := range []struct{ past, seq int }{{0, 5}, {6, 1}, {6, 3}} {
		r := rand.New(rand.NewPCG(uint64(tc.past), uint64(tc.seq)))
		compareForms(t, c.Decoder, decoderFeeds(c, r, tc.past, tc.seq))
	}
}

// The decoder with 4-bit weights computes the float decoder's function
// up to the weights' rounding: close to it, but not the same.
func TestDecoder4BitNearFloat(t *testing.T) {
	c := testmodels.DecoderConfig{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, FFN: 96, Vocab: 100, MaxPos: 64}
	feeds := decoderFeeds(c, rand.New(rand.NewPCG(3, 4)), 6, 2)
	want, err := run(t, c.Decoder(testmodels.Contrib), feeds)
	if err != nil {
		t.Fatal(err)
	}
	got, err := run(t, c.Decoder(testmodels.Contrib4Bit), feeds)
	if err != nil {
		t.Fatalf("4-bit decoder: %v", err)
	}
	gv, _ := payload.Typed[float32](*got.Get("logits"))
	wv, _ := payload.Typed[float32](*want.Get("logits"))
	if e := relL2(gv.Data, wv.Data); !(e > 1e-4 && e <= 0.2) {
		t.Errorf("logits: relative L2 error %.2e against the float decoder, want between 1e-4 and 0.2", e)
	}
}
