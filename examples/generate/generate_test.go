package main

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lintel-ml/lintel/internal/testmodels"
)

// small is a decoder small enough for tests.
var small = testmodels.DecoderConfig{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 2, FFN: 96, Vocab: 97, MaxPos: 128}

// decode returns the prompt's next token, then n-1 more, each step fed
// the cache.
func decode(t *testing.T, g *generator, prompt []int64, n int) []int64 {
	t.Helper()
	if err := g.reset(); err != nil {
		t.Fatal(err)
	}
	next, err := g.step(prompt)
	if err != nil {
		t.Fatal(err)
	}
	out := []int64{next}
	for len(out) < n {
		if next, err = g.step([]int64{next}); err != nil {
			t.Fatal(err)
		}
		out = append(out, next)
	}
	return out
}

// The cache carries exactly what recomputing the whole sequence would:
// tokens decoded with it equal tokens from running every prefix afresh,
// in every form of the model.
func TestCacheMatchesRecompute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	prompt := make([]int64, 5)
	for i := range prompt {
		prompt[i] = int64(r.IntN(small.Vocab))
	}
	const n = 12
	var first []int64
	for _, f := range testmodels.Forms {
		t.Run(f.String(), func(t *testing.T) {
			g, err := newGenerator(small.Decoder(f), small, len(prompt)+n, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer g.close()
			got := decode(t, g, prompt, n)
			// Recompute: the whole sequence so far, empty cache, each step.
			seq := slices.Clone(prompt)
			var want []int64
			for range n {
				if err := g.reset(); err != nil {
					t.Fatal(err)
				}
				next, err := g.step(seq)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, next)
				seq = append(seq, next)
			}
			if !slices.Equal(got, want) {
				t.Errorf("with the cache got %v, recomputing got %v", got, want)
			}
			if first == nil {
				first = got
			} else if !slices.Equal(got, first) {
				t.Errorf("%s form decoded %v, the basic form %v", f, got, first)
			}
		})
	}
}

// A decoding step allocates nothing once the outputs exist, although
// the cache grows every step.
func TestStepAllocatesNothing(t *testing.T) {
	const steps = 40
	g, err := newGenerator(small.Decoder(testmodels.Standard), small, 4+2*steps+4, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	next, err := g.step([]int64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	for range steps / 2 {
		if next, err = g.step([]int64{next}); err != nil {
			t.Fatal(err)
		}
	}
	got := testing.AllocsPerRun(steps/2, func() {
		if next, err = g.step([]int64{next}); err != nil {
			t.Fatal(err)
		}
	})
	if got != 0 {
		t.Errorf("got %v allocations per token, want 0", got)
	}
}

func TestStepRefusesTooLong(t *testing.T) {
	g, err := newGenerator(small.Decoder(testmodels.Basic), small, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	if _, err := g.step([]int64{1, 2, 3, 4, 5}); err == nil {
		t.Error("got no error for 5 positions with a maximum of 4")
	}
}

func TestRun(t *testing.T) {
	if err := run("basic", 3, 4, 1); err != nil {
		t.Fatal(err)
	}
	if err := run("nonsense", 3, 4, 1); err == nil {
		t.Error("got no error for an unknown form")
	}
}
