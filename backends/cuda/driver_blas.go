//go:build cuda && cgo

package cuda

/*
#include "shim.h"
*/
import "C"

import "github.com/lintel-ml/lintel/internal/errs"

// blasWorkspace is the device workspace each cuBLAS handle owns, so GEMMs
// captured into a graph never allocate (32 MiB, cuBLAS's recommendation
// for Hopper).
const blasWorkspace = 32 << 20

// blas is a cuBLAS handle bound to one stream, with its own workspace.
type blas struct {
	g  *gpu
	s  *stream
	h  C.uintptr_t
	ws devptr
}

// openBlas loads cuBLAS on first use, creates a handle bound to s and
// gives it a workspace (cublasSetWorkspace_v2). TF32 is off.
func (g *gpu) openBlas(s *stream) (*blas, error) {
	if err := g.broken(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errs.New(errs.ExecutionFailed, "cuda: cuBLAS handle without a stream")
	}
	if err := loadBlas(); err != nil {
		return nil, err
	}
	ws, err := g.alloc(blasWorkspace)
	if err != nil {
		return nil, err
	}
	var h C.uintptr_t
	if err := g.check(C.lt_blas_create(g.ctx, s.s, C.uint64_t(ws), blasWorkspace, &h)); err != nil {
		g.free(ws)
		return nil, err
	}
	return &blas{g: g, s: s, h: h, ws: ws}, nil
}

// setTF32 lets float32 GEMMs use TF32 tensor cores
// (CUBLAS_TF32_TENSOR_OP_MATH) or not (CUBLAS_DEFAULT_MATH, which keeps
// float32's precision). Half-precision GEMMs use tensor cores either way.
func (b *blas) setTF32(on bool) error {
	if err := b.g.broken(); err != nil {
		return err
	}
	mode := C.int(C.LT_CUBLAS_DEFAULT_MATH)
	if on {
		mode = C.LT_CUBLAS_TF32_TENSOR_OP_MATH
	}
	return b.g.check(C.lt_blas_math(b.g.ctx, b.h, mode))
}

// close destroys the handle and frees its workspace; later calls are
// no-ops. Programs recorded with the handle must be freed first.
func (b *blas) close() {
	if b.h != 0 {
		C.lt_blas_destroy(b.g.ctx, b.h)
		b.h = 0
		b.g.free(b.ws)
		b.ws = 0
	}
}
