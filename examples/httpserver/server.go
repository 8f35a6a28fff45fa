package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends"
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/models"
	"github.com/lintel-ml/lintel/payload"
)

type tensor = payload.Tensor[float32]

// config says what to serve and how.
type config struct {
	modelPath    string
	instances    int
	batch        batch.Options
	drainTimeout time.Duration
	// maxBody caps a request body; 0 means 64 MiB.
	maxBody int64
}

// server is the service: model instances behind one batcher.
type server struct {
	models   []*backends.Model[tensor, tensor]
	b        *batch.Batcher[tensor, tensor, *backends.Model[tensor, tensor]]
	maxBody  int64
	stopping atomic.Bool
}

// message is the JSON form of a tensor in requests and answers.
type message struct {
	Shape []int     `json:"shape"`
	Data  []float32 `json:"data"`
}

// newServer loads cfg's model (the shipped classifier by default) as
// cfg.instances instances on one backend, so they share the weights, and
// puts a batcher in front of them.
func newServer(cfg config) (*server, error) {
	var art *artifacts.Artifact
	var err error
	if cfg.modelPath == "" {
		art, err = artifacts.FromFS(models.FS(), models.PPOCRClassifierFile)
	} else {
		art, err = artifacts.Open(cfg.modelPath)
	}
	if err != nil {
		return nil, err
	}
	return newServerFor(art, cfg)
}

func newServerFor(art *artifacts.Artifact, cfg config) (*server, error) {
	s := &server{maxBody: cfg.maxBody}
	if s.maxBody <= 0 {
		s.maxBody = 64 << 20
	}
	be := backends.New[tensor, tensor](compute.Options{Threads: 1})
	for range max(cfg.instances, 1) {
		m, err := be.LoadModel(art)
		if err == nil {
			err = m.Init()
		}
		if err != nil {
			s.closeModels()
			return nil, err
		}
		s.models = append(s.models, m)
	}
	b, err := batch.NewBatcher[tensor, tensor](s.models, cfg.batch)
	if err != nil {
		s.closeModels()
		return nil, err
	}
	s.b = b
	return s, nil
}

// handler routes the service's endpoints.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/infer", s.infer)
	mux.HandleFunc("GET /healthz", s.health)
	return mux
}

func (s *server) infer(w http.ResponseWriter, r *http.Request) {
	var req message
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, s.maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		code := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			code = http.StatusRequestEntityTooLarge
		}
		fail(w, code, fmt.Errorf("request body: %w", err))
		return
	}
	in := tensor{Shape: req.Shape, Data: req.Data}
	var out tensor
	err := s.b.Infer(r.Context(), &in, &out)
	switch {
	case err == nil:
	case errors.Is(err, batch.ErrOverloaded):
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusServiceUnavailable, err)
		return
	case errors.Is(err, batch.ErrClosed):
		fail(w, http.StatusServiceUnavailable, err)
		return
	case errors.Is(err, compute.ErrShapeMismatch):
		fail(w, http.StatusBadRequest, err)
		return
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// The client has gone; nobody reads the answer.
		fail(w, http.StatusServiceUnavailable, err)
		return
	default:
		fail(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(message{Shape: out.Shape, Data: out.Data})
}

// health answers 200 with the batcher's counters while serving, 503 once
// a shutdown has begun.
func (s *server) health(w http.ResponseWriter, r *http.Request) {
	st := s.b.Stats()
	code, status := http.StatusOK, "ok"
	if s.stopping.Load() {
		code, status = http.StatusServiceUnavailable, "stopping"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"status":     status,
		"backend":    backends.Name,
		"instances":  len(s.models),
		"requests":   st.Requests,
		"rejected":   st.Rejected,
		"batches":    st.Batches,
		"mean_batch": st.MeanBatch(),
	})
}

func fail(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// shutdown stops the HTTP server gracefully (no new connections, requests
// in flight finish, within timeout), then drains the batcher and closes
// the models.
func (s *server) shutdown(hs *http.Server, timeout time.Duration) error {
	s.stopping.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := hs.Shutdown(ctx)
	s.b.Close()
	s.closeModels()
	return err
}

func (s *server) closeModels() {
	for _, m := range s.models {
		m.Close()
	}
}

// run serves on ln until ctx ends, then shuts down gracefully.
func run(ctx context.Context, ln net.Listener, cfg config) error {
	s, err := newServer(cfg)
	if err != nil {
		ln.Close()
		return err
	}
	return s.serve(ctx, ln, cfg.drainTimeout)
}

// serve serves on ln until ctx ends, then shuts down within timeout.
func (s *server) serve(ctx context.Context, ln net.Listener, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	hs := &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		// Serve failed on its own: stop everything else too.
		s.b.Close()
		s.closeModels()
		return err
	case <-ctx.Done():
	}
	err := s.shutdown(hs, timeout)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
