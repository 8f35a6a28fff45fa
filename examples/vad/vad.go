package main

import (
	"fmt"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// Silero VAD v5 at 16 kHz: 512 new samples a call, preceded by the last
// 64 samples of the call before, as silero-vad's own wrapper feeds it.
const (
	rate      = 16000
	chunkLen  = 512
	context   = 64
	stateSize = 128
)

// detector runs Silero VAD v5 over a stream of 512-sample chunks. Its
// recurrent state goes from each call's output "stateN" to the next
// call's input "state" without a copy: two output payloads are written
// in turn, so a call never writes the state it reads (docs/streaming.md).
// Once both have grown, a chunk allocates nothing.
type detector struct {
	model *backends.Model[payload.Multi, payload.Multi]
	in    payload.Multi // input, state, sr
	outs  [2]payload.Multi
	next  int
	audio []float32 // the input's data: context, then the chunk
}

// newDetector loads a Silero VAD v5 model from path on one thread.
func newDetector(path string) (*detector, error) {
	art, err := artifacts.Open(path)
	if err != nil {
		return nil, err
	}
	m, err := backends.New[payload.Multi, payload.Multi](compute.Options{Threads: 1}).LoadModel(art)
	if err != nil {
		return nil, err
	}
	if err := m.Init(); err != nil {
		m.Close()
		return nil, err
	}
	d := &detector{model: m, audio: make([]float32, context+chunkLen)}
	d.in.Tensors = []payload.Dynamic{
		payload.DynamicOf("input", payload.Tensor[float32]{Shape: []int{1, context + chunkLen}, Data: d.audio}),
		payload.DynamicOf("state", payload.NewTensor[float32](2, 1, stateSize)),
		payload.DynamicOf("sr", payload.Tensor[int64]{Shape: []int{}, Data: []int64{rate}}),
	}
	return d, nil
}

// prob returns the probability that chunk, 512 samples following those
// of the call before, holds speech.
func (d *detector) prob(chunk []float32) (float32, error) {
	if len(chunk) != chunkLen {
		return 0, fmt.Errorf("vad: chunk of %d samples, want %d", len(chunk), chunkLen)
	}
	copy(d.audio, d.audio[chunkLen:])
	copy(d.audio[context:], chunk)
	out := &d.outs[d.next]
	if err := d.model.InferOne(&d.in, out); err != nil {
		return 0, err
	}
	st := out.Get("stateN")
	d.in.Tensors[1].Shape, d.in.Tensors[1].Data = st.Shape, st.Data
	d.next ^= 1
	p, err := payload.Typed[float32](*out.Get("output"))
	if err != nil {
		return 0, err
	}
	return p.Data[0], nil
}

// Close releases the model.
func (d *detector) Close() error { return d.model.Close() }

// segment is a stretch of speech, in seconds from the start.
type segment struct {
	start, end float64
}

// hysteresis turns per-chunk speech probabilities into segments, as
// silero-vad's get_speech_timestamps does: speech starts at the first
// chunk at or above threshold, and ends where the probability fell below
// negThreshold and stayed below threshold for minSilence; segments
// shorter than minSpeech are dropped.
type hysteresis struct {
	threshold, negThreshold float32
	minSilence, minSpeech   float64 // seconds
}

// defaultHysteresis holds silero-vad's defaults.
var defaultHysteresis = hysteresis{threshold: 0.5, negThreshold: 0.35, minSilence: 0.1, minSpeech: 0.25}

// segments returns the speech segments of a stream whose chunks of
// chunkSec seconds had probabilities probs.
func (h hysteresis) segments(probs []float32, chunkSec float64) []segment {
	var out []segment
	speaking := false
	var start, silentSince float64
	silent := false
	closeAt := func(end float64) {
		if end-start >= h.minSpeech {
			out = append(out, segment{start, end})
		}
		speaking, silent = false, false
	}
	for i, p := range probs {
		t := float64(i) * chunkSec
		switch {
		case p >= h.threshold && !speaking:
			speaking, silent, start = true, false, t
		case p >= h.threshold:
			silent = false
		case speaking && p < h.negThreshold:
			if !silent {
				silent, silentSince = true, t
			}
			if t+chunkSec-silentSince >= h.minSilence {
				closeAt(silentSince)
			}
		}
	}
	if speaking {
		closeAt(float64(len(probs)) * chunkSec)
	}
	return out
}
