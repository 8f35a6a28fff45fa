//go:build ort

package ortcheck

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/lintel-ml/lintel/payload"
	ort "github.com/yalue/onnxruntime_go"
)

// The Silero voice activity detectors (MIT, github.com/snakers4/silero-vad)
// as npm `@ricky0123/vad-web` ships them, fetched by `make ort-deps`.
const sileroPkg = "@ricky0123/vad-web"

const (
	sileroRate   = 16000 // samples per second
	sileroChunk  = 512   // samples per call at 16 kHz
	sileroChunks = 100   // calls per stream: 3.2 s
)

// sileroCase is one Silero model, run as a stream: every call takes the
// next chunk and the state the previous call returned.
type sileroCase struct {
	name, file string
	// context is how many samples of the previous chunk precede each
	// chunk in the input, as silero-vad's own wrapper feeds v5 and v6.
	context int
	// states pairs each state input with the output that feeds it on
	// the next call.
	states []sileroState
}

type sileroState struct {
	in, out string
	shape   []int
}

var sileroCases = []sileroCase{
	{"silero_vad_legacy", "dist/silero_vad_legacy.onnx", 0, []sileroState{
		{"h", "hn", []int{2, 1, 64}},
		{"c", "cn", []int{2, 1, 64}},
	}},
	{"silero_vad_v5", "dist/silero_vad_v5.onnx", 64, []sileroState{{"state", "stateN", []int{2, 1, 128}}}},
	{"silero_vad_v6", "dist/silero_vad_v6.onnx", 64, []sileroState{{"state", "stateN", []int{2, 1, 128}}}},
}

// sileroSignal returns n samples at 16 kHz of a deterministic signal that
// alternates near-silence with voiced stretches: a harmonic series on a
// wandering fundamental of 110-220 Hz, amplitude-modulated at a
// syllable rate, with noise, so that the detector sees both speech-like
// and silent chunks.
func sileroSignal(n int) []float32 {
	r := rand.New(rand.NewPCG(0x51e, 0x20))
	x := make([]float32, n)
	// Voiced stretches, in seconds.
	voiced := [][2]float64{{0.5, 1.5}, {2.0, 2.9}}
	phase := 0.0
	for i := range x {
		t := float64(i) / sileroRate
		v := 0.002 * r.NormFloat64() // background noise
		for _, s := range voiced {
			if t < s[0] || t >= s[1] {
				continue
			}
			f0 := 165 + 55*math.Sin(2*math.Pi*0.7*t)
			phase += 2 * math.Pi * f0 / sileroRate
			env := 0.5 - 0.5*math.Cos(2*math.Pi*4*(t-s[0])) // 4 syllables a second
			var h float64
			for k := 1; k <= 12; k++ {
				h += math.Sin(float64(k)*phase) / float64(k)
			}
			v += env * (0.25*h + 0.02*r.NormFloat64())
		}
		x[i] = float32(v)
	}
	return x
}

// TestSileroStreams streams each Silero model over sileroChunks chunks of
// the same signal on lintel and on ONNX Runtime, each feeding its own
// state outputs back as the next call's state inputs, and compares every
// chunk's probability and states. Then it checks that lintel's chunk
// call, with two output payloads swapped between calls, allocates
// nothing.
func TestSileroStreams(t *testing.T) {
	signal := sileroSignal(sileroChunks * sileroChunk)
	for _, c := range sileroCases {
		t.Run(c.name, func(t *testing.T) {
			model, err := os.ReadFile(npmFile(sileroPkg, c.file))
			if err != nil {
				t.Fatalf("%v (run `make ort-deps` or set LINTEL_NPM_DIR)", err)
			}
			ref := newSileroORT(t, model, c)
			lm, err := loadLintel(model, c.name)
			if err != nil {
				t.Fatalf("loadLintel: %v", err)
			}
			defer lm.close()
			ls := newSileroLintel(lm, c)

			var worstProb, worstState float64
			var worstAt, speech int
			lo, hi := float32(1), float32(0)
			for k := range sileroChunks {
				chunk := signal[k*sileroChunk : (k+1)*sileroChunk]
				wantP, wantStates := ref.step(t, chunk)
				if err := ls.step(chunk); err != nil {
					t.Fatalf("chunk %d: lintel: %v", k, err)
				}
				gotP, gotStates, err := ls.result()
				if err != nil {
					t.Fatalf("chunk %d: %v", k, err)
				}
				e := relL2([]float64{float64(gotP)}, []float64{float64(wantP)})
				if e > worstProb {
					worstProb, worstAt = e, k
				}
				lo, hi = min(lo, wantP), max(hi, wantP)
				if !(e <= 1e-4) {
					t.Errorf("chunk %d: probability %v, ONNX Runtime %v (relative error %.1e, want at most 1e-4)", k, gotP, wantP, e)
				}
				for i, s := range c.states {
					e := relL2(widenF(gotStates[i]), widenF(wantStates[i]))
					worstState = max(worstState, e)
					if !(e <= 1e-4) {
						t.Errorf("chunk %d: state %q: relative L2 error %.1e, want at most 1e-4", k, s.out, e)
					}
				}
				if wantP > 0.5 {
					speech++
				}
				if t.Failed() {
					t.FailNow()
				}
			}
			t.Logf("%d chunks, probabilities %.4f to %.4f, %d above 0.5: worst relative error %.1e (probability, chunk %d), %.1e (state)",
				sileroChunks, lo, hi, speech, worstProb, worstAt, worstState)
			if speech == 0 || speech == sileroChunks {
				t.Errorf("%d of %d chunks have probability > 0.5: the signal should give both speech and silence", speech, sileroChunks)
			}

			chunk := signal[:sileroChunk]
			step := func() {
				if err := ls.step(chunk); err != nil {
					t.Fatalf("lintel: %v", err)
				}
			}
			if got := testing.AllocsPerRun(50, step); got != 0 {
				t.Errorf("got %v allocations per chunk in steady state, want 0", got)
			}
		})
	}
}

// sileroLintel streams a Silero model on lintel: one input payload whose
// state entries alias the previous call's outputs, and two output
// payloads used in turn, so that no call writes the state it reads.
type sileroLintel struct {
	m     *lintelModel
	c     sileroCase
	in    payload.Multi
	outs  [2]payload.Multi
	cur   int // the output payload the next call writes
	audio []float32
}

func newSileroLintel(m *lintelModel, c sileroCase) *sileroLintel {
	s := &sileroLintel{m: m, c: c, audio: make([]float32, c.context+sileroChunk)}
	s.in.Tensors = append(s.in.Tensors,
		payload.DynamicOf("input", payload.Tensor[float32]{Shape: []int{1, len(s.audio)}, Data: s.audio}),
		payload.DynamicOf("sr", payload.Tensor[int64]{Shape: []int{}, Data: []int64{sileroRate}}))
	for _, st := range c.states {
		s.in.Tensors = append(s.in.Tensors, payload.DynamicOf(st.in, payload.NewTensor[float32](st.shape...)))
	}
	return s
}

// step runs one chunk: the context, then the chunk, with the states of
// the previous call.
func (s *sileroLintel) step(chunk []float32) error {
	copy(s.audio, s.audio[sileroChunk:])
	copy(s.audio[s.c.context:], chunk)
	out := &s.outs[s.cur]
	if err := s.m.run(&s.in, out); err != nil {
		return err
	}
	for i, st := range s.c.states {
		d := out.Get(st.out)
		e := &s.in.Tensors[2+i]
		e.Shape, e.Data = d.Shape, d.Data
	}
	s.cur ^= 1
	return nil
}

// result returns the last call's probability and states.
func (s *sileroLintel) result() (float32, [][]float32, error) {
	out := &s.outs[s.cur^1]
	p, err := payload.Typed[float32](*out.Get("output"))
	if err != nil {
		return 0, nil, err
	}
	var states [][]float32
	for _, st := range s.c.states {
		v, err := payload.Typed[float32](*out.Get(st.out))
		if err != nil {
			return 0, nil, err
		}
		states = append(states, v.Data)
	}
	return p.Data[0], states, nil
}

// sileroORT streams a Silero model on ONNX Runtime (one thread, graph
// optimizations off), copying each state output into its input.
type sileroORT struct {
	c        sileroCase
	s        *ort.DynamicAdvancedSession
	audio    *ort.Tensor[float32]
	prob     *ort.Tensor[float32]
	stIn     []*ort.Tensor[float32]
	stOut    []*ort.Tensor[float32]
	ins, out []ort.Value
}

func newSileroORT(t *testing.T, model []byte, c sileroCase) *sileroORT {
	t.Helper()
	r := &sileroORT{c: c}
	var err error
	if r.audio, err = ort.NewEmptyTensor[float32](ort.NewShape(1, int64(c.context+sileroChunk))); err != nil {
		t.Fatal(err)
	}
	sr, err := ort.NewScalar(int64(sileroRate))
	if err != nil {
		t.Fatal(err)
	}
	if r.prob, err = ort.NewEmptyTensor[float32](ort.NewShape(1, 1)); err != nil {
		t.Fatal(err)
	}
	inNames, outNames := []string{"input", "sr"}, []string{"output"}
	r.ins, r.out = []ort.Value{r.audio, sr}, []ort.Value{r.prob}
	for _, st := range c.states {
		in, err := ort.NewEmptyTensor[float32](shape64(st.shape))
		if err != nil {
			t.Fatal(err)
		}
		out, err := ort.NewEmptyTensor[float32](shape64(st.shape))
		if err != nil {
			t.Fatal(err)
		}
		r.stIn, r.stOut = append(r.stIn, in), append(r.stOut, out)
		inNames, outNames = append(inNames, st.in), append(outNames, st.out)
		r.ins, r.out = append(r.ins, in), append(r.out, out)
	}
	t.Cleanup(func() {
		for _, v := range append(r.ins, r.out...) {
			v.Destroy()
		}
	})
	opts, err := ort.NewSessionOptions()
	if err != nil {
		t.Fatal(err)
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		t.Fatal(err)
	}
	if err := opts.SetGraphOptimizationLevel(ort.GraphOptimizationLevelDisableAll); err != nil {
		t.Fatal(err)
	}
	if r.s, err = ort.NewDynamicAdvancedSessionWithONNXData(model, inNames, outNames, opts); err != nil {
		t.Fatalf("ONNX Runtime session: %v", err)
	}
	t.Cleanup(func() { r.s.Destroy() })
	return r
}

// step runs one chunk and returns the probability and copies of the
// states, which it also feeds back for the next call.
func (r *sileroORT) step(t *testing.T, chunk []float32) (float32, [][]float32) {
	t.Helper()
	a := r.audio.GetData()
	copy(a, a[sileroChunk:])
	copy(a[r.c.context:], chunk)
	if err := r.s.Run(r.ins, r.out); err != nil {
		t.Fatalf("ONNX Runtime: %v", err)
	}
	var states [][]float32
	for i := range r.stOut {
		states = append(states, append([]float32(nil), r.stOut[i].GetData()...))
		copy(r.stIn[i].GetData(), r.stOut[i].GetData())
	}
	return r.prob.GetData()[0], states
}
