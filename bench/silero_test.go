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

// The Silero voice activity detectors (MIT, github.com/snakers4/silero-vad)
// at 16 kHz, as npm @ricky0123/vad-web ships them (`make ort-deps`): each
// call takes sileroChunk new samples, after the context last samples of
// the call before, and the state the call before returned.
const (
	sileroChunk = 512
	sileroRate  = 16000
)

// sileroFile is one Silero model and how it streams.
type sileroFile struct {
	name, file string
	context    int
	// states pairs each state input with the output that feeds it on
	// the next call.
	states []sileroState
}

type sileroState struct {
	in, out string
	shape   []int
}

// sileroFiles are the Silero models vad-web ships: the legacy one (v4,
// LSTM state h and c), and v5 and v6 (one state, 64 samples of context).
var sileroFiles = []sileroFile{
	{"silero_vad_legacy", "silero_vad_legacy.onnx", 0, []sileroState{{"h", "hn", []int{2, 1, 64}}, {"c", "cn", []int{2, 1, 64}}}},
	{"silero_vad_v5", "silero_vad_v5.onnx", 64, []sileroState{{"state", "stateN", []int{2, 1, 128}}}},
	{"silero_vad_v6", "silero_vad_v6.onnx", 64, []sileroState{{"state", "stateN", []int{2, 1, 128}}}},
}

// sileroModel reads one Silero model from the npm prefix; it skips when
// the file is absent.
func sileroModel(tb testing.TB, f sileroFile) []byte {
	tb.Helper()
	dir := os.Getenv("LINTEL_NPM_DIR")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "npm")
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@ricky0123", "vad-web", "dist", f.file))
	if err != nil {
		tb.Skipf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
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

// sileroLintel streams a model on lintel, one thread, two output
// payloads written in turn (docs/streaming.md).
type sileroLintel struct {
	f     sileroFile
	m     *backends.Model[payload.Multi, payload.Multi]
	in    payload.Multi
	outs  [2]payload.Multi
	next  int
	audio []float32
	src   []float32
	pos   int
}

func loadSileroLintel(tb testing.TB, f sileroFile, model []byte) *sileroLintel {
	tb.Helper()
	art, err := artifacts.FromBytes(model, f.name)
	if err != nil {
		tb.Fatalf("artifacts.FromBytes: %v", err)
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err == nil {
		err = m.Init()
	}
	if err != nil {
		tb.Fatalf("loading %s: %v", f.name, err)
	}
	tb.Cleanup(func() { _ = m.Close() })
	s := &sileroLintel{f: f, m: m, audio: make([]float32, f.context+sileroChunk), src: sileroAudio()}
	s.in.Tensors = []payload.Dynamic{
		payload.DynamicOf("input", payload.Tensor[float32]{Shape: []int{1, len(s.audio)}, Data: s.audio}),
		payload.DynamicOf("sr", payload.Tensor[int64]{Shape: []int{}, Data: []int64{sileroRate}}),
	}
	for _, st := range f.states {
		s.in.Tensors = append(s.in.Tensors, payload.DynamicOf(st.in, payload.NewTensor[float32](st.shape...)))
	}
	return s
}

// step runs the next chunk of the audio, looping over it.
func (s *sileroLintel) step(tb testing.TB) float32 {
	if s.pos+sileroChunk > len(s.src) {
		s.pos = 0
	}
	copy(s.audio, s.audio[sileroChunk:])
	copy(s.audio[s.f.context:], s.src[s.pos:s.pos+sileroChunk])
	s.pos += sileroChunk
	out := &s.outs[s.next]
	if err := s.m.InferOne(&s.in, out); err != nil {
		tb.Fatalf("lintel: %v", err)
	}
	for i, st := range s.f.states {
		d := out.Get(st.out)
		s.in.Tensors[2+i].Shape, s.in.Tensors[2+i].Data = d.Shape, d.Data
	}
	s.next ^= 1
	p, _ := payload.FromBytes[float32](out.Get("output").Data)
	return p[0]
}

// sileroORT streams a model on ONNX Runtime (default graph
// optimisations, one thread), its tensors bound once; each call copies
// the state outputs into the state inputs (1 KiB).
type sileroORT struct {
	f           sileroFile
	s           *ort.AdvancedSession
	audio, prob *ort.Tensor[float32]
	stIn, stOut []*ort.Tensor[float32]
	src         []float32
	pos         int
}

func loadSileroORT(tb testing.TB, f sileroFile, model []byte) *sileroORT {
	tb.Helper()
	r := &sileroORT{f: f, src: sileroAudio()}
	var err error
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	r.audio, err = ort.NewEmptyTensor[float32](ort.NewShape(1, int64(f.context+sileroChunk)))
	must(err)
	r.prob, err = ort.NewEmptyTensor[float32](ort.NewShape(1, 1))
	must(err)
	sr, err := ort.NewScalar(int64(sileroRate))
	must(err)
	inNames, outNames := []string{"input", "sr"}, []string{"output"}
	ins, outs := []ort.Value{r.audio, sr}, []ort.Value{r.prob}
	for _, st := range f.states {
		shape := make([]int64, len(st.shape))
		for i, d := range st.shape {
			shape[i] = int64(d)
		}
		in, err := ort.NewEmptyTensor[float32](ort.NewShape(shape...))
		must(err)
		out, err := ort.NewEmptyTensor[float32](ort.NewShape(shape...))
		must(err)
		r.stIn, r.stOut = append(r.stIn, in), append(r.stOut, out)
		inNames, outNames = append(inNames, st.in), append(outNames, st.out)
		ins, outs = append(ins, in), append(outs, out)
	}
	opts, err := ort.NewSessionOptions()
	must(err)
	defer opts.Destroy()
	must(opts.SetIntraOpNumThreads(1))
	must(opts.SetInterOpNumThreads(1))
	r.s, err = ort.NewAdvancedSessionWithONNXData(model, inNames, outNames, ins, outs, opts)
	must(err)
	tb.Cleanup(func() {
		r.s.Destroy()
		for _, v := range append(ins, outs...) {
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
	copy(a[r.f.context:], r.src[r.pos:r.pos+sileroChunk])
	r.pos += sileroChunk
	if err := r.s.Run(); err != nil {
		tb.Fatalf("ONNX Runtime: %v", err)
	}
	for i := range r.stIn {
		copy(r.stIn[i].GetData(), r.stOut[i].GetData())
	}
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

// TestSileroVsORT times one chunk (512 samples, state carried) of each
// Silero model on one thread in lintel and in ONNX Runtime, interleaved,
// and logs the medians, the ratios and the load average: on the wall
// clock, then on the thread's CPU time (interleaveCPU), which a loaded
// machine disturbs less. Both stream the
// same audio; it checks that their probabilities agree and that lintel's
// chunk allocates nothing.
func TestSileroVsORT(t *testing.T) {
	if err := initORT(); err != nil {
		t.Fatalf("initORT: %v", err)
	}
	rounds := envInt("BENCH_ROUNDS", 21)
	before := loadAvg()
	var rows [][]string
	for _, f := range sileroFiles {
		t.Run(f.name, func(t *testing.T) {
			model := sileroModel(t, f)
			l, o := loadSileroLintel(t, f, model), loadSileroORT(t, f, model)
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
			runners := []func(){func() { l.step(t) }, func() { o.step(t) }}
			ts := interleave(runners, rounds, 20*time.Millisecond)
			row := []string{f.name + " chunk (512 samples)", us(ts[0]), us(ts[1]), fmt.Sprintf("%.2f×", float64(ts[0])/float64(ts[1]))}
			if cs, ok := interleaveCPU(runners, rounds, 100); ok {
				row = append(row, us(cs[0]), us(cs[1]), fmt.Sprintf("%.2f×", float64(cs[0])/float64(cs[1])))
			} else {
				row = append(row, "n/a", "n/a", "n/a")
			}
			rows = append(rows, append(row, fmt.Sprintf("%.1e", worst)))
		})
	}
	t.Logf("lintel kernels: %s; %d rounds; load average %s before, %s after\n%s", kernelInfo(), rounds, before, loadAvg(),
		table([]string{"case (one thread)", "lintel", "ONNX Runtime", "lintel / ORT", "lintel CPU", "ORT CPU", "CPU ratio", "max |diff|"}, rows))
}

// BenchmarkSilero times one chunk of each Silero model on one thread in
// lintel and in ONNX Runtime.
func BenchmarkSilero(b *testing.B) {
	if err := initORT(); err != nil {
		b.Fatalf("initORT: %v", err)
	}
	for _, f := range sileroFiles {
		b.Run(f.name+"/lintel", func(b *testing.B) {
			l := loadSileroLintel(b, f, sileroModel(b, f))
			l.step(b)
			l.step(b)
			b.ReportAllocs()
			for b.Loop() {
				l.step(b)
			}
		})
		b.Run(f.name+"/onnxruntime", func(b *testing.B) {
			o := loadSileroORT(b, f, sileroModel(b, f))
			o.step(b)
			for b.Loop() {
				o.step(b)
			}
		})
	}
}
