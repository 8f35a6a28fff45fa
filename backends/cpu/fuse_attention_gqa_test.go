package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// TestFuseAttentionLlamaBasic checks that every layer of a small
// Llama-style decoder in its basic form (grouped heads repeated by
// Unsqueeze, Expand and Reshape; a causal mask whose length is known only
// at run time) gets one Attention node at load, that one token after a
// cache gives the unfused model's results within 1e-5, relative, and
// that a token allocates nothing.
func TestFuseAttentionLlamaBasic(t *testing.T) {
	c := testmodels.DecoderConfig{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, FFN: 96, Vocab: 50, MaxPos: 64}
	onnx := c.Decoder(testmodels.Basic)
	fused, na := loadAttn(t, onnx, true)
	plain, np := loadAttn(t, onnx, false)
	if na != c.Layers || np != 0 {
		t.Fatalf("got %d Attention nodes fused and %d unfused, want %d and 0", na, np, c.Layers)
	}
	for _, tc := range []struct{ past, seq int }{{0, 3}, {7, 1}, {20, 2}} {
		r := rand.New(rand.NewPCG(31, uint64(tc.past)))
		ids := make([]int64, tc.seq)
		pos := make([]int64, tc.seq)
		for i := range ids {
			ids[i], pos[i] = int64(r.IntN(c.Vocab)), int64(tc.past+i)
		}
		in := &payload.Multi{Tensors: []payload.Dynamic{
			payload.DynamicOf("input_ids", payload.Tensor[int64]{Shape: []int{1, tc.seq}, Data: ids}),
			payload.DynamicOf("position_ids", payload.Tensor[int64]{Shape: []int{1, tc.seq}, Data: pos}),
		}}
		hd := c.Hidden / c.Heads
		for l := range c.Layers {
			for kv := range 2 {
				shape := []int{1, c.KVHeads, tc.past, hd}
				in.Tensors = append(in.Tensors, payload.DynamicOf(testmodels.DecoderPast(l, kv),
					f32t{Shape: shape, Data: fuseRand(r, payload.NumElems(shape), 1)}))
			}
		}
		var a, b payload.Multi
		if err := fused.InferOne(in, &a); err != nil {
			t.Fatalf("past %d: fused: %v", tc.past, err)
		}
		if err := plain.InferOne(in, &b); err != nil {
			t.Fatalf("past %d: unfused: %v", tc.past, err)
		}
		for i := range b.Tensors {
			got, _ := payload.FromBytes[float32](a.Tensors[i].Data)
			want, _ := payload.FromBytes[float32](b.Tensors[i].Data)
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("past %d: output %s has %d elements, want %d", tc.past, b.Tensors[i].Name, len(got), len(want))
			}
			for j := range got {
				if d := math.Abs(float64(got[j] - want[j])); d > 1e-5*math.Max(1, math.Abs(float64(want[j]))) {
					t.Fatalf("past %d: %s[%d] is %v fused, %v unfused", tc.past, b.Tensors[i].Name, j, got[j], want[j])
				}
			}
		}
		if n := testing.AllocsPerRun(5, func() {
			if err := fused.InferOne(in, &a); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("past %d: got %v allocations per token, want 0", tc.past, n)
		}
	}
}
