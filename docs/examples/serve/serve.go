// Package serve is the code of the guide "Serving a model from a Go HTTP
// service" (docs/serving.md): an http.Handler that runs a float32 model
// for concurrent requests from a pool of loaded models.
package serve

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/payload"
)

// T is the payload type: one float32 tensor in, one out.
type T = payload.Tensor[float32]

// worker is one loaded model and the output it reuses, so that a call
// allocates nothing in lintel.
type worker struct {
	m   *backends.Model[T, T]
	out T
}

// Server runs one model for HTTP requests. A model is not safe for
// concurrent use, so the server holds a pool of them: each request takes
// one, runs it and puts it back.
type Server struct {
	pool chan *worker
	all  []*worker
}

// New loads the model at path size times, sharing one decoded artifact.
func New(path string, size int) (*Server, error) {
	art, err := artifacts.Open(path)
	if err != nil {
		return nil, err
	}
	be := backends.New[T, T](compute.Options{Threads: 1})
	s := &Server{pool: make(chan *worker, size)}
	for range size {
		m, err := be.LoadModel(art) // unsupported ops are refused here
		if err == nil {
			err = m.Init()
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		w := &worker{m: m}
		s.all = append(s.all, w)
		s.pool <- w
	}
	return s, nil
}

// Close releases every model.
func (s *Server) Close() {
	for _, w := range s.all {
		w.m.Close()
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
	wk := <-s.pool
	err := wk.m.InferOne(&T{Shape: in.Shape, Data: in.Data}, &wk.out)
	var body []byte
	if err == nil {
		// Encode before giving the worker back: its output is reused.
		body, err = json.Marshal(tensorJSON{Shape: wk.out.Shape, Data: wk.out.Data})
	}
	s.pool <- wk
	switch {
	case errors.Is(err, compute.ErrShapeMismatch):
		http.Error(w, err.Error(), http.StatusBadRequest) // the client's tensor does not fit
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}
