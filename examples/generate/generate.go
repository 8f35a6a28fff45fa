package main

import (
	"fmt"
	"math"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
)

// generator decodes greedily with a decoder whose inputs are input_ids,
// position_ids and past_key_values.L.key/.value, and whose outputs are
// logits and present.L.key/.value (the layout Hugging Face's exporters
// and testmodels.DecoderConfig write).
//
// It runs on the CPU backend, whose models carry values: the model
// carries its own cache (compute.Options.Carries): each
// present output becomes the next call's past input inside the model,
// allocated once for maxLen positions (compute.Options.MaxSequence).
// Each form appends the new keys and values in place and copies nothing:
// the standard form's Attention nodes, the com.microsoft form's
// GroupQueryAttention nodes, and in the basic form the Attention nodes
// that lintel makes at load from its products, Softmax and the Concats
// that grow the cache. The model is warmed at the largest
// shapes (Model.Warm), so a step allocates nothing.
type generator struct {
	model  *cpu.Model[payload.Multi, payload.Multi]
	cfg    testmodels.DecoderConfig
	maxLen int
	in     payload.Multi // input_ids, position_ids
	out    payload.Multi // logits
	ids    []int64       // input_ids' data
	pos    []int64       // position_ids' data
	past   int           // cached positions
}

// carries pairs every present output with its past input.
func carries(cfg testmodels.DecoderConfig) []compute.Carry {
	var cs []compute.Carry
	for l := range cfg.Layers {
		for kv := range 2 {
			cs = append(cs, compute.Carry{Output: testmodels.DecoderPresent(l, kv), Input: testmodels.DecoderPast(l, kv)})
		}
	}
	return cs
}

// newGenerator loads model on threads threads for sequences of at most
// maxLen positions.
func newGenerator(model []byte, cfg testmodels.DecoderConfig, maxLen, threads int) (*generator, error) {
	art, err := artifacts.FromBytes(model, "decoder")
	if err != nil {
		return nil, err
	}
	opts := compute.Options{Threads: threads, Carries: carries(cfg), MaxSequence: maxLen}
	m, err := cpu.New[payload.Multi, payload.Multi](opts).LoadModel(art)
	if err != nil {
		return nil, err
	}
	if err := m.Init(); err != nil {
		m.Close()
		return nil, err
	}
	hd := cfg.Hidden / cfg.Heads
	// Warm at the largest shapes: a whole prompt on an empty cache, and
	// the last token on a full one.
	for _, s := range [][2]int{{maxLen, 0}, {1, maxLen - 1}} {
		shapes := [][]int{{1, s[0]}, {1, s[0]}}
		for range 2 * cfg.Layers {
			shapes = append(shapes, []int{1, cfg.KVHeads, s[1], hd})
		}
		if err := m.Warm(shapes); err != nil {
			m.Close()
			return nil, err
		}
	}
	g := &generator{model: m, cfg: cfg, maxLen: maxLen, ids: make([]int64, maxLen), pos: make([]int64, maxLen)}
	g.in.Tensors = []payload.Dynamic{
		payload.DynamicOf("input_ids", payload.Tensor[int64]{Shape: []int{1, 0}, Data: g.ids[:0]}),
		payload.DynamicOf("position_ids", payload.Tensor[int64]{Shape: []int{1, 0}, Data: g.pos[:0]}),
	}
	g.out.Tensors = []payload.Dynamic{{Name: "logits", Data: alignedBytes(4 * maxLen * cfg.Vocab)}}
	return g, nil
}

// alignedBytes returns n zero bytes aligned for float32 and int64.
func alignedBytes(n int) []byte {
	return payload.AsBytes(make([]uint64, (n+7)/8))[:n]
}

// close releases the model.
func (g *generator) close() error { return g.model.Close() }

// reset forgets the cache, for a new sequence.
func (g *generator) reset() error {
	g.past = 0
	return g.model.ResetCarries()
}

// step runs the model on tokens after the cached positions and returns
// the token with the highest logit at the last position.
func (g *generator) step(tokens []int64) (int64, error) {
	s := len(tokens)
	if s == 0 || g.past+s > g.maxLen {
		return 0, fmt.Errorf("generate: %d cached and %d new positions exceed the maximum of %d", g.past, s, g.maxLen)
	}
	copy(g.ids, tokens)
	for i := range s {
		g.pos[i] = int64(g.past + i)
	}
	g.in.Tensors[0].Shape[1], g.in.Tensors[0].Data = s, payload.AsBytes(g.ids[:s])
	g.in.Tensors[1].Shape[1], g.in.Tensors[1].Data = s, payload.AsBytes(g.pos[:s])
	if err := g.model.InferOne(&g.in, &g.out); err != nil {
		return 0, err
	}
	g.past += s
	logits, ok := payload.FromBytes[float32](g.out.Tensors[0].Data)
	if !ok || len(logits) < s*g.cfg.Vocab {
		return 0, fmt.Errorf("generate: logits hold %d bytes, want %d float32", len(g.out.Tensors[0].Data), s*g.cfg.Vocab)
	}
	return argmax(logits[(s-1)*g.cfg.Vocab:][:g.cfg.Vocab]), nil
}

// argmax returns the index of the largest value, the first of equals.
func argmax(v []float32) int64 {
	best, bi := float32(math.Inf(-1)), 0
	for i, x := range v {
		if x > best {
			best, bi = x, i
		}
	}
	return int64(bi)
}
