// Command generate runs greedy decoding with a small Llama-style decoder
// on lintel's CPU backend and reports tokens per second.
//
//	go run ./examples/generate -form standard -prompt 32 -tokens 128
//
// The model is generated with random weights (testmodels.LlamaDecoder:
// 4 layers, width 512, 8 query and 2 key/value heads, a SwiGLU MLP, a
// vocabulary of 8192), in one of three forms: basic ops, opset 23's
// Attention, RMSNormalization and RotaryEmbedding, or ONNX Runtime's
// com.microsoft ops. Its tokens mean nothing; its speed is a real
// decoder's at that size. The prompt is random token ids; each new token
// is the argmax of the last position's logits, fed back with the key and
// value cache of the positions before (see generate.go).
//
// Output: the prompt's time, then the decoding rate and the tokens.
//
//	prompt: 32 tokens in 14.1 ms
//	decode: 128 tokens in 1.61 s, 79.5 tokens/s (12.6 ms/token)
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/lintel-ml/lintel/internal/testmodels"
)

func main() {
	form := flag.String("form", "standard", "the model's ops: basic, standard or contrib")
	prompt := flag.Int("prompt", 32, "prompt length in tokens")
	tokens := flag.Int("tokens", 128, "tokens to generate")
	threads := flag.Int("threads", 1, "threads")
	flag.Parse()
	if err := run(*form, *prompt, *tokens, *threads); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

// formOf parses a form's name.
func formOf(name string) (testmodels.Form, error) {
	for _, f := range testmodels.Forms {
		if f.String() == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown form %q: want basic, standard or contrib", name)
}

func run(form string, prompt, tokens, threads int) error {
	f, err := formOf(form)
	if err != nil {
		return err
	}
	if prompt < 1 || tokens < 1 {
		return fmt.Errorf("-prompt and -tokens must be at least 1")
	}
	cfg := testmodels.LlamaDecoder
	g, err := newGenerator(cfg.Decoder(f), cfg, prompt+tokens, threads)
	if err != nil {
		return err
	}
	defer g.close()
	r := rand.New(rand.NewPCG(1, 2))
	ids := make([]int64, prompt)
	for i := range ids {
		ids[i] = int64(r.IntN(cfg.Vocab))
	}
	t0 := time.Now()
	next, err := g.step(ids)
	if err != nil {
		return err
	}
	fmt.Printf("prompt: %d tokens in %.1f ms\n", prompt, float64(time.Since(t0).Microseconds())/1e3)
	out := []int64{next}
	t0 = time.Now()
	for len(out) < tokens {
		if next, err = g.step([]int64{next}); err != nil {
			return err
		}
		out = append(out, next)
	}
	d := time.Since(t0)
	n := len(out) - 1
	if n > 0 {
		fmt.Printf("decode: %d tokens in %.2f s, %.1f tokens/s (%.1f ms/token)\n", n, d.Seconds(), float64(n)/d.Seconds(), d.Seconds()*1e3/float64(n))
	}
	fmt.Println("tokens:", out)
	return nil
}
