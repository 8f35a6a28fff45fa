package cpu

import (
	"math"
	"testing"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// A decoder's caches carried under MaxSequence are appended in place in
// every form: by its Attention nodes (standard), by the Attention nodes
// that fusing its basic ops makes, the cache's Concats taken in (basic),
// and by its GroupQueryAttention nodes (com.microsoft). Each gives the
// logits the same decoder gives with its caches carried in two buffers,
// step after step, and a token allocates nothing.
func TestCarryDecoderCacheInPlace(t *testing.T) {
	for _, f := range []testmodels.Form{testmodels.Basic, testmodels.Standard, testmodels.Contrib} {
		t.Run(f.String(), func(t *testing.T) { testCarryInPlace(t, f) })
	}
}

func testCarryInPlace(t *testing.T, form testmodels.Form) {
	cfg := testmodels.DecoderConfig{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, FFN: 96, Vocab: 97, MaxPos: 64}
	var carries []compute.Carry
	for l := range cfg.Layers {
		for kv := range 2 {
			carries = append(carries, compute.Carry{Output: testmodels.DecoderPresent(l, kv), Input: testmodels.DecoderPast(l, kv)})
		}
	}
	load := func(ms int) *Model[payload.Multi, payload.Multi] {
		art, err := artifacts.FromBytes(cfg.Decoder(form), "decoder.onnx")
		if err != nil {
			t.Fatal(err)
		}
		m, err := New[payload.Multi, payload.Multi](compute.Options{Threads: 1, Carries: carries, MaxSequence: ms}).LoadModel(art)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Init(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = m.Close() })
		return m
	}
	ref, m := load(0), load(40)
	for i, c := range m.prog.carries {
		if c.mode != carryInPlace {
			t.Fatalf("carry %d (%s) is in mode %d, want in place", i, m.prog.values[c.out].name, c.mode)
		}
	}
	for i, c := range ref.prog.carries {
		if c.mode == carryInPlace {
			t.Fatalf("without MaxSequence, carry %d is in place", i)
		}
	}
	ids, pos := make([]int64, 8), make([]int64, 8)
	in := payload.Multi{Tensors: []payload.Dynamic{
		payload.DynamicOf("input_ids", payload.Tensor[int64]{Shape: []int{1, 0}}),
		payload.DynamicOf("position_ids", payload.Tensor[int64]{Shape: []int{1, 0}}),
	}}
	var got, want payload.Multi
	n := 0
	for step, s := range []int{5, 1, 1, 3, 1, 1, 1, 1} {
		for i := range s {
			ids[i], pos[i] = int64((step*31+i*7)%cfg.Vocab), int64(n+i)
		}
		in.Tensors[0].Shape[1], in.Tensors[0].Data = s, payload.AsBytes(ids[:s])
		in.Tensors[1].Shape[1], in.Tensors[1].Data = s, payload.AsBytes(pos[:s])
		if err := ref.InferOne(&in, &want); err != nil {
			t.Fatal(err)
		}
		run := func() {
			if err := m.InferOne(&in, &got); err != nil {
				t.Fatal(err)
			}
		}
		if step == 6 {
			// Both models have seen the same tokens; the counted run
			// appends one more position to m, so it ends the test.
			if a := testing.AllocsPerRun(1, run); a != 0 {
				t.Errorf("got %v allocations per token, want 0", a)
			}
			break
		}
		run()
		g, _ := payload.FromBytes[float32](got.Get("logits").Data)
		w, _ := payload.FromBytes[float32](want.Get("logits").Data)
		if len(g) != len(w) {
			t.Fatalf("step %d: got %d logits, want %d", step, len(g), len(w))
		}
		for i := range w {
			if math.Abs(float64(g[i]-w[i])) > 1e-5*(1+math.Abs(float64(w[i]))) {
				t.Fatalf("step %d: logit %d = %v, want %v", step, i, g[i], w[i])
			}
		}
		n += s
	}
	// Past MaxSequence: refused.
	big := make([]int64, 41)
	in.Tensors[0].Shape[1], in.Tensors[0].Data = 41, payload.AsBytes(big)
	in.Tensors[1].Shape[1], in.Tensors[1].Data = 41, payload.AsBytes(big)
	_ = m.ResetCarries()
	if err := m.InferOne(&in, &got); err == nil {
		t.Error("41 positions under MaxSequence 40: got no error")
	}
}
