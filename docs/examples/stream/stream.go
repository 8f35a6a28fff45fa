// Package stream runs a model whose outputs feed its next call's inputs,
// such as a voice activity detector's recurrent state, chunk after chunk
// without allocating. It is the code of docs/streaming.md.
//
// Rules: a call never reads a state from the payload it writes. Two
// output payloads are written in turn, and each state input is pointed
// at the state output of the call before, so nothing is copied and,
// once both output payloads have grown to size, nothing is allocated.
package stream

import (
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/payload"
)

// State names a state input and the output that feeds it on the next
// call.
type State struct {
	In, Out string
}

// Stream runs a stateful model one chunk at a time. It is not safe for
// concurrent use, as the model is not.
type Stream struct {
	model  *backends.Model[payload.Multi, payload.Multi]
	in     payload.Multi    // the chunk inputs and the states, by name
	outs   [2]payload.Multi // written in turn
	next   int              // the output payload the next call writes
	states []State
}

// New returns a stream over model. inputs holds every model input, the
// states with their initial values; the stream keeps the slice and
// writes the states' Shape and Data after each call.
func New(model *backends.Model[payload.Multi, payload.Multi], inputs []payload.Dynamic, states []State) *Stream {
	return &Stream{model: model, in: payload.Multi{Tensors: inputs}, states: states}
}

// Input returns the input named name: write the next chunk into its Data
// before calling Step.
func (s *Stream) Input(name string) *payload.Dynamic { return s.in.Get(name) }

// Step runs the model once on the inputs' current contents and points
// each state input at the state output it just wrote. The outputs it
// returns stay valid until the call after next.
func (s *Stream) Step() (*payload.Multi, error) {
	out := &s.outs[s.next]
	if err := s.model.InferOne(&s.in, out); err != nil {
		return nil, err
	}
	for _, st := range s.states {
		o, in := out.Get(st.Out), s.in.Get(st.In)
		in.Shape, in.Data = o.Shape, o.Data
	}
	s.next ^= 1
	return out, nil
}
