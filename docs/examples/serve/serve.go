// Package serve is the code of the guide "Serving a model from a Go HTTP
// service" (docs/serving.md): an http.Handler that runs a float32 model
// for concurrent requests through a batch.Batcher over a few loaded
// instances of the model.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// T is the payload type: one float32 tensor in, one out.
type T = payload.Tensor[float32]

// Server runs one model for HTTP requests. A model is not safe for
// concurrent use, so the server puts a batch.Batcher in front of a few
// instances of it: the batcher is safe for concurrent use, gives each
// instance to one worker goroutine, and runs the requests that arrive
// together as one InferBatch call.
type Server struct {
	models  []*backends.Model[T, T]
	batcher *batch.Batcher[T, T, *backends.Model[T, T]]
}

// New loads the model at path as instances instances, which share one
// decoded artifact and its weights, and starts a batcher over them.
func New(path string, instances int, opts batch.Options) (*Server, error) {
	art, err := artifacts.Open(path)
	if err != nil {
		return nil, err
	}
	be := backends.New[T, T](compute.Options{Threads: 1})
	s := &Server{}
	for range max(instances, 1) {
		m, err := be.LoadModel(art) // unsupported ops are refused here
		if err == nil {
			err = m.Init()
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		s.models = append(s.models, m)
	}
	s.batcher, err = batch.NewBatcher[T, T](s.models, opts)
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close finishes every request the batcher has accepted, stops its
// workers, then closes the models: the batcher does not own them.
func (s *Server) Close() {
	if s.batcher != nil {
		s.batcher.Close()
	}
	for _, m := range s.models {
		m.Close()
	}
}

// tensorJSON is a tensor on the wire: {"shape": [1, 4], "data": [...]}.
type tensorJSON struct {
	Shape []int     `json:"shape"`
	Data  []float32 `json:"data"`
}

// ServeHTTP runs the model on the tensor POSTed as JSON and answers with
// the output tensor as JSON.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST a tensor", http.StatusMethodNotAllowed)
		return
	}
	var in tensorJSON
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var out T
	err := s.batcher.Infer(r.Context(), &T{Shape: in.Shape, Data: in.Data}, &out)
	var body []byte
	if err == nil {
		body, err = json.Marshal(tensorJSON{Shape: out.Shape, Data: out.Data})
	}
	switch {
	case errors.Is(err, compute.ErrShapeMismatch):
		http.Error(w, err.Error(), http.StatusBadRequest) // the client's tensor does not fit
	case errors.Is(err, batch.ErrOverloaded):
		w.Header().Set("Retry-After", "1") // the queue is full: shed load
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	case errors.Is(err, batch.ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		http.Error(w, err.Error(), http.StatusServiceUnavailable) // shutting down, or the client left
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}
