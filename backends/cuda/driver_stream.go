//go:build cuda && cgo

package cuda

/*
#include "shim.h"
*/
import "C"

// stream is a CUDA stream (CUstream) of one gpu.
type stream struct {
	g *gpu
	s C.uintptr_t
}

// newStream creates a stream that does not synchronize with the legacy
// default stream (CU_STREAM_NON_BLOCKING).
func (g *gpu) newStream() (*stream, error) {
	if err := g.broken(); err != nil {
		return nil, err
	}
	var s C.uintptr_t
	if err := g.check(C.lt_stream_create(g.ctx, &s)); err != nil {
		return nil, err
	}
	return &stream{g: g, s: s}, nil
}

// sync waits for the stream's work (cuStreamSynchronize).
func (s *stream) sync() error {
	if err := s.g.broken(); err != nil {
		return err
	}
	return s.g.check(C.lt_stream_sync(s.g.ctx, s.s))
}

// destroy destroys the stream; later calls are no-ops. Programs and
// cuBLAS handles on the stream must be freed first.
func (s *stream) destroy() {
	if s.s != 0 {
		C.lt_stream_destroy(s.g.ctx, s.s)
		s.s = 0
	}
}
