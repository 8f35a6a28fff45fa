//go:build ort

package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/testmodels"
	"github.com/lintel-ml/lintel/payload"
	ort "github.com/yalue/onnxruntime_go"
)

// multiRunner is a many-input model on lintel or ONNX Runtime, its
// inputs and outputs bound once.
type multiRunner struct {
	run func()
	out func() []float32 // the first output
}

// lintelMulti loads model on lintel (one thread) with feeds bound.
func lintelMulti(tb testing.TB, model []byte, feeds []payload.Dynamic) (*multiRunner, payload.Multi) {
	tb.Helper()
	art, err := artifacts.FromBytes(model, "generated")
	if err != nil {
		tb.Fatal(err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err == nil {
		err = m.Init()
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = m.Close() })
	in := &payload.Multi{Tensors: feeds}
	var out payload.Multi
	run := func() {
		if err := m.InferOne(in, &out); err != nil {
			tb.Fatal(err)
		}
	}
	run()
	first := func() []float32 { v, _ := payload.FromBytes[float32](out.Tensors[0].Data); return v }
	return &multiRunner{run: run, out: first}, out
}

// ortDynamic makes an ONNX Runtime tensor holding a copy of d.
func ortDynamic(tb testing.TB, d payload.Dynamic) ort.Value {
	shape := make(ort.Shape, len(d.Shape))
	for i, n := range d.Shape {
		shape[i] = int64(n)
	}
	var v ort.Value
	var err error
	switch d.DType {
	case payload.Float32:
		x, _ := payload.FromBytes[float32](d.Data)
		v, err = ort.NewTensor(shape, append([]float32(nil), x...))
	case payload.Int64:
		x, _ := payload.FromBytes[int64](d.Data)
		v, err = ort.NewTensor(shape, append([]int64(nil), x...))
	default:
		tb.Fatalf("input %q: %s", d.Name, d.DType)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// ortMulti loads model on ONNX Runtime (one thread, default graph
// optimisations) with feeds bound and outputs shaped as lintel's.
func ortMulti(tb testing.TB, model []byte, feeds []payload.Dynamic, outs payload.Multi) *multiRunner {
	tb.Helper()
	var inNames, outNames []string
	var ins, outv []ort.Value
	for _, d := range feeds {
		inNames = append(inNames, d.Name)
		ins = append(ins, ortDynamic(tb, d))
	}
	for _, d := range outs.Tensors {
		outNames = append(outNames, d.Name)
		shape := make(ort.Shape, len(d.Shape))
		for i, n := range d.Shape {
			shape[i] = int64(n)
		}
		t, err := ort.NewEmptyTensor[float32](shape)
		if err != nil {
			tb.Fatal(err)
		}
		outv = append(outv, t)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		tb.Fatal(err)
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		tb.Fatal(err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		tb.Fatal(err)
	}
	s, err := ort.NewAdvancedSessionWithONNXData(model, inNames, outNames, ins, outv, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		s.Destroy()
		for _, v := range append(ins, outv...) {
			v.Destroy()
		}
	})
	run := func() {
		if err := s.Run(); err != nil {
			tb.Fatal(err)
		}
	}
	run()
	return &multiRunner{run: run, out: outv[0].(*ort.Tensor[float32]).GetData}
}

// encoderFeeds are one batch of the encoder's inputs, nothing padded.
func encoderFeeds(c testmodels.EncoderConfig, batch int) []payload.Dynamic {
	r := rand.New(rand.NewPCG(21, uint64(batch)))
	x := make([]float32, batch*c.Seq*c.Hidden)
	for i := range x {
		x[i] = r.Float32()*2 - 1
	}
	mask := make([]int64, batch*c.Seq)
	for i := range mask {
		mask[i] = 1
	}
	return []payload.Dynamic{
		payload.DynamicOf("x", payload.Tensor[float32]{Shape: []int{batch, c.Seq, c.Hidden}, Data: x}),
		payload.DynamicOf("attention_mask", payload.Tensor[int64]{Shape: []int{batch, c.Seq}, Data: mask}),
	}
}

// TestTransformersVsORT times the generated BERT-style encoder (batch 1
// and 8, sequence 128) and one token of the Llama-style decoder after
// 128 and 1024 cached positions, in each form the runtime loads and the
// decoder with 4-bit weights too, on one
// thread in lintel and ONNX Runtime, interleaved, and logs medians and
// ratios. It checks that both gave the same first output.
func TestTransformersVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 11)
	type tcase struct {
		name  string
		model []byte
		feeds []payload.Dynamic
	}
	var cases []tcase
	for _, f := range testmodels.Forms {
		enc := testmodels.BERTEncoder.Encoder(f)
		dec := testmodels.LlamaDecoder.Decoder(f)
		cases = append(cases,
			tcase{"bert_" + f.String() + "_b1", enc, encoderFeeds(testmodels.BERTEncoder, 1)},
			tcase{"bert_" + f.String() + "_b8", enc, encoderFeeds(testmodels.BERTEncoder, 8)},
			tcase{"llama_" + f.String() + "_token_ctx128", dec, tokenFeeds(testmodels.LlamaDecoder, 128)},
			tcase{"llama_" + f.String() + "_token_ctx1024", dec, tokenFeeds(testmodels.LlamaDecoder, 1024)})
	}
	// The decoder with 4-bit weights (MatMulNBits), as ONNX Runtime's
	// quantizer writes it.
	dec4 := testmodels.LlamaDecoder.Decoder(testmodels.Contrib4Bit)
	cases = append(cases,
		tcase{"llama_contrib4bit_token_ctx128", dec4, tokenFeeds(testmodels.LlamaDecoder, 128)},
		tcase{"llama_contrib4bit_token_ctx1024", dec4, tokenFeeds(testmodels.LlamaDecoder, 1024)})
	var rows [][]string
	before := loadAvg()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, outs := lintelMulti(t, c.model, c.feeds)
			o := ortMulti(t, c.model, c.feeds, outs)
			got, want := l.out(), o.out()
			var num, den float64
			for i := range want {
				d := float64(got[i] - want[i])
				num, den = num+d*d, den+float64(want[i])*float64(want[i])
			}
			if e := num / max(den, 1e-30); !(e <= 1e-6) {
				t.Errorf("squared relative L2 error %.2e against ONNX Runtime, want at most 1e-6", e)
			}
			ts := interleave([]func(){l.run, o.run}, rounds, 50*time.Millisecond)
			rows = append(rows, []string{c.name, us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1]))})
		})
	}
	t.Logf("lintel kernels: %s; %d rounds; load average %s before, %s after\n%s", kernelInfo(), rounds, before, loadAvg(),
		table([]string{"case (one thread)", "lintel", "ONNX Runtime", "lintel / ORT"}, rows))
}
