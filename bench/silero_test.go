//go:build ort

package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
	ort "github.com/yalue/onnxruntime_go"
)

// Silero VAD v5 (MIT, github.com/snakers4/silero-vad) at 16 kHz, as npm
// @ricky0123/vad-web ships it (`make ort-deps`): each call takes the
// last 64 samples of the call before and 512 new ones, and the state.
const (
	sileroChunk   = 512
	sileroContext = 64
	sileroRate    = 16000
)

// sileroModel reads Silero VAD v5 from the npm prefix.
func sileroModel(tb testing.TB) []byte {
	tb.Helper()
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@ricky0123", "vad-web", "dist", "silero_vad_v5.onnx"))
	if err != nil {
		tb.Fatalf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
	}
	return b
}

// sileroAudio is a second of a 200 Hz tone with harmonics and noise.
func sileroAudio() []float32 {
	r := rand.New(rand.NewPCG(5, 16))
	x := make([]float32, sileroRate)
	for i := range x {
		ph := 2 * math.Pi * 200 * float64(i) / sileroRate
		x[i] = float32(0.2*(math.Sin(ph)+math.Sin(2*ph)/2+math.Sin(3*ph)/3) + 0.01*r.NormFloat64())
	}
	return x
}

// sileroLintel streams the model on lintel, one thread, two output
// payloads written in turn (docs/streaming.md).
type sileroLintel struct {
	m     *backends.Model[payload.Multi, payload.Multi]
	in    payload.Multi
	outs  [2]payload.Multi
	next  int
	audio []float32
	src   []float32
	pos   int
}

func loadSileroLintel(tb testing.TB, model []byte) *sileroLintel {
	tb.Helper()
	art, err := artifacts.FromBytes(model, "silero_vad_v5")
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err == nil {
		err = m.Init()
	}
	if err != nil {
		tb.Fatalf("loading Silero VAD v5: %v", err)
	}
	tb.Cleanup(func() { _ = m.Close() })
	s := &sileroLintel{m: m, audio: make([]float32, sileroContext+sileroChunk), src: sileroAudio()}
	s.in.Tensors = []payload.Dynamic{
		payload.DynamicOf("input", payload.Tensor[float32]{Shape: []int{1, len(s.audio)}, Data: s.audio}),
		payload.DynamicOf("state", payload.NewTensor[float32](2, 1, 128)),
		payload.DynamicOf("sr", payload.Tensor[int64]{Shape: []int{}, Data: []int64{sileroRate}}),
	}
	return s
}

// step runs the next chunk of the audio, looping over it.
func (s *sileroLintel) step(tb testing.TB) float32 {
	if s.pos+sileroChunk > len(s.src) {
		s.pos = 0
	}
	copy(s.audio, s.audio[sileroChunk:])
	copy(s.audio[sileroContext:], s.src[s.pos:s.pos+sileroChunk])
	s.pos += sileroChunk
	out := &s.outs[s.next]
	if err := s.m.InferOne(&s.in, out); err != nil {
		tb.Fatalf("lintel: %v", err)
	}
	st := out.Get("stateN")
	s.in.Tensors[1].Shape, s.in.Tensors[1].Data = st.Shape, st.Data
	s.next ^= 1
	p, _ := payload.FromBytes[float32](out.Get("output").Data)
	return p[0]
}

// sileroORT streams the model on ONNX Runtime (default graph
// optimisations, one thread), its tensors bound once; each call copies
// the state output into the state input (1 KiB).
type sileroORT struct {
	s                  *ort.AdvancedSession
	audio, state, prob *ort.Tensor[float32]
	stateN             *ort.Tensor[float32]
	src                []float32
	pos                int
}

func loadSileroORT(tb testing.TB, model []byte) *sileroORT {
	tb.Helper()
	r := &sileroORT{src: sileroAudio()}
	var err error
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	r.audio, err = ort.NewEmptyTensor[float32](ort.NewShape(1, sileroContext+sileroChunk))
	must(err)
	r.state, err = ort.NewEmptyTensor[float32](ort.NewShape(2, 1, 128))
	must(err)
	r.prob, err = ort.NewEmptyTensor[float32](ort.NewShape(1, 1))
	must(err)
	r.stateN, err = ort.NewEmptyTensor[float32](ort.NewShape(2, 1, 128))
	must(err)
	sr, err := ort.NewScalar(int64(sileroRate))
	must(err)
	opts, err := ort.NewSessionOptions()
	must(err)
	defer opts.Destroy()
	must(opts.SetIntraOpNumThreads(1))
	must(opts.SetInterOpNumThreads(1))
	r.s, err = ort.NewAdvancedSessionWithONNXData(model, []string{"input", "state", "sr"}, []string{"output", "stateN"},
		[]ort.Value{r.audio, r.state, sr}, []ort.Value{r.prob, r.stateN}, opts)
	must(err)
	tb.Cleanup(func() {
		r.s.Destroy()
		for _, v := range []ort.Value{r.audio, r.state, r.prob, r.stateN, sr} {
			v.Destroy()
		}
	})
	return r
}

func (r *sileroORT) step(tb testing.TB) float32 {
	if r.pos+sileroChunk > len(r.src) {
		r.pos = 0
	}
	a := r.audio.GetData()
	copy(a, a[sileroChunk:])
	copy(a[sileroContext:], r.src[r.pos:r.pos+sileroChunk])
	r.pos += sileroChunk
	if err := r.s.Run(); err != nil {
		tb.Fatalf("ONNX Runtime: %v", err)
	}
	copy(r.state.GetData(), r.stateN.GetData())
	return r.prob.GetData()[0]
}

// loadAvg returns /proc/loadavg's first three fields, or "unknown".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// TestSileroVsORT times one Silero VAD v5 chunk (512 samples, state
// carried) on one thread in lintel and in ONNX Runtime, interleaved, and
// logs the medians, the ratio and the load average. Both stream the same
// audio; it checks that their probabilities agree and that lintel's
// chunk allocates nothing.
func TestSileroVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	model := sileroModel(t)
	l, o := loadSileroLintel(t, model), loadSileroORT(t, model)
	var worst float64
	for k := range 40 {
		got, want := l.step(t), o.step(t)
		d := math.Abs(float64(got - want))
		worst = max(worst, d)
		if !(d <= 1e-4) {
			t.Fatalf("chunk %d: probability %v, ONNX Runtime %v", k, got, want)
		}
	}
	if got := testing.AllocsPerRun(50, func() { l.step(t) }); got != 0 {
		t.Errorf("got %v allocations per chunk, want 0", got)
	}
	rounds := envInt("BENCH_ROUNDS", 21)
	before := loadAvg()
	ts := interleave([]func(){func() { l.step(t) }, func() { o.step(t) }}, rounds, 20*time.Millisecond)
	t.Logf("lintel kernels: %s; %d rounds; load average %s before, %s after\n%s", kernelInfo(), rounds, before, loadAvg(),
		table([]string{"case (one thread)", "lintel", "ONNX Runtime", "lintel / ORT", "max |diff|"},
			[][]string{{"silero_vad_v5 chunk (512 samples)", us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1])), fmt.Sprintf("%.1e", worst)}}))
}

// BenchmarkSileroV5 times one Silero VAD v5 chunk on one thread in lintel
// and in ONNX Runtime.
func BenchmarkSileroV5(b *testing.B) {
	if err := initORT(); err != nil {
		b.Fatalf("initORT: %v", err)
	}
	model := sileroModel(b)
	b.Run("lintel", func(b *testing.B) {
		l := loadSileroLintel(b, model)
		l.step(b)
		l.step(b)
		b.ReportAllocs()
		for b.Loop() {
			l.step(b)
		}
	})
	b.Run("onnxruntime", func(b *testing.B) {
		o := loadSileroORT(b, model)
		o.step(b)
		for b.Loop() {
			o.step(b)
		}
	})
}
