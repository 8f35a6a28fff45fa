//go:build cuda && cgo

package cuda

/*
#include "shim.h"
*/
import "C"

import (
	"unsafe"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Element types of a GEMM operand.
const (
	dtF32  uint8 = iota // float32
	dtF16               // IEEE half
	dtBF16              // bfloat16
)

// gemmDesc is one cuBLAS GEMM, C = alpha*op(A)*op(B) + beta*C, in
// cuBLAS's column-major terms (the caller maps row-major). A and B have
// the same element type (cuBLAS has no mixed A/B kernels); C is always
// float32 and the computation 32F. With batch > 1 it is a strided batched
// GEMM with element strides strideA, strideB and strideC.
type gemmDesc struct {
	transA, transB            bool
	m, n, k                   int32
	alpha, beta               float32
	a, b, c                   devptr
	lda, ldb, ldc             int32
	strideA, strideB, strideC int64
	batch                     int32
	aType, bType              uint8
}

// cudaType maps an element type to its cudaDataType_t.
func cudaType(t uint8) (C.int32_t, bool) {
	switch t {
	case dtF32:
		return C.LT_CUDA_R_32F, true
	case dtF16:
		return C.LT_CUDA_R_16F, true
	case dtBF16:
		return C.LT_CUDA_R_16BF, true
	}
	return 0, false
}

// program is a recorded sequence of device work on one stream, replayed
// by run: enqueued op by op, or as one CUDA graph once captured.
//
// Recording methods do not return errors: the first bad op is kept and
// returned by capture and run.
type program struct {
	g   *gpu
	s   *stream
	b   *blas
	c   *C.lt_prog
	err error
}

// newProgram returns an empty program for stream s; b may be nil when
// the program holds no GEMM.
func (g *gpu) newProgram(s *stream, b *blas) *program {
	p := &program{g: g, s: s, b: b}
	switch {
	case s == nil:
		p.err = errs.New(errs.ExecutionFailed, "cuda: program without a stream")
		return p
	case b != nil && b.s != s:
		p.err = errs.New(errs.ExecutionFailed, "cuda: program's cuBLAS handle is bound to another stream")
		return p
	}
	var h C.uintptr_t
	if b != nil {
		h = b.h
	}
	if p.c = C.lt_prog_new(s.s, h); p.c == nil {
		p.err = errs.New(errs.ResourceUnavailable, "cuda: out of host memory for a program")
	}
	return p
}

// fail keeps the program's first recording error.
func (p *program) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// grown reports a failed C allocation while recording.
func (p *program) grown(rc C.int) {
	if rc != 0 {
		p.fail(errs.New(errs.ResourceUnavailable, "cuda: out of host memory recording a program"))
	}
}

// recording reports whether ops may still be added.
func (p *program) recording(what string) bool {
	if p.err != nil {
		return false
	}
	if p.captured() {
		p.fail(errs.New(errs.ExecutionFailed, "cuda: %s recorded after capture", what))
		return false
	}
	return true
}

// launch records a kernel launch. params is the kernel's packed
// parameter buffer (see packParams), passed with
// CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE; it is copied.
func (p *program) launch(fn function, grid, block [3]uint32, shmem uint32, params []byte) {
	if !p.recording("launch") {
		return
	}
	if fn == 0 {
		p.fail(errs.New(errs.ExecutionFailed, "cuda: launch of a nil function"))
		return
	}
	for i := range 3 {
		if grid[i] == 0 || block[i] == 0 {
			p.fail(errs.New(errs.ExecutionFailed, "cuda: launch with grid %v block %v", grid, block))
			return
		}
	}
	var ptr unsafe.Pointer
	if len(params) > 0 {
		ptr = unsafe.Pointer(&params[0])
	}
	p.grown(C.lt_prog_launch(p.c, C.uintptr_t(fn),
		(*C.uint32_t)(unsafe.Pointer(&grid[0])), (*C.uint32_t)(unsafe.Pointer(&block[0])),
		C.uint32_t(shmem), ptr, C.size_t(len(params))))
}

// gemm records a GEMM on the program's cuBLAS handle.
func (p *program) gemm(d gemmDesc) {
	if !p.recording("gemm") {
		return
	}
	if p.b == nil {
		p.fail(errs.New(errs.ExecutionFailed, "cuda: gemm recorded in a program without cuBLAS"))
		return
	}
	at, okA := cudaType(d.aType)
	bt, okB := cudaType(d.bType)
	switch {
	case !okA || !okB || d.aType != d.bType:
		p.fail(errs.New(errs.Unsupported, "cuda: gemm with A type %d and B type %d (both must be one of float32, float16, bfloat16)", d.aType, d.bType))
		return
	case d.m <= 0 || d.n <= 0 || d.k <= 0 || d.lda <= 0 || d.ldb <= 0 || d.ldc <= 0:
		p.fail(errs.New(errs.ShapeMismatch, "cuda: gemm m=%d n=%d k=%d lda=%d ldb=%d ldc=%d", d.m, d.n, d.k, d.lda, d.ldb, d.ldc))
		return
	case d.a == 0 || d.b == 0 || d.c == 0:
		p.fail(errs.New(errs.ExecutionFailed, "cuda: gemm with a nil operand"))
		return
	}
	tr := func(b bool) C.int32_t {
		if b {
			return 1
		}
		return 0
	}
	g := C.lt_gemm{
		transa: tr(d.transA), transb: tr(d.transB),
		m: C.int32_t(d.m), n: C.int32_t(d.n), k: C.int32_t(d.k),
		lda: C.int32_t(d.lda), ldb: C.int32_t(d.ldb), ldc: C.int32_t(d.ldc),
		batch: C.int32_t(max(d.batch, 1)),
		atype: at, btype: bt,
		alpha: C.float(d.alpha), beta: C.float(d.beta),
		a: C.uint64_t(d.a), b: C.uint64_t(d.b), c: C.uint64_t(d.c),
		stridea: C.int64_t(d.strideA), strideb: C.int64_t(d.strideB), stridec: C.int64_t(d.strideC),
	}
	p.grown(C.lt_prog_gemm(p.c, &g))
}

// copy records a device-to-device copy of n bytes, asynchronous on the
// stream.
func (p *program) copy(dst, src devptr, n int) {
	if !p.recording("copy") {
		return
	}
	if n <= 0 || dst == 0 || src == 0 {
		p.fail(errs.New(errs.ExecutionFailed, "cuda: copy of %d bytes from %#x to %#x", n, src, dst))
		return
	}
	p.grown(C.lt_prog_copy(p.c, C.uint64_t(dst), C.uint64_t(src), C.size_t(n)))
}

// zero records zeroing n bytes at dst (cuMemsetD8Async).
func (p *program) zero(dst devptr, n int) {
	if !p.recording("zero") {
		return
	}
	if n <= 0 || dst == 0 {
		p.fail(errs.New(errs.ExecutionFailed, "cuda: zero of %d bytes at %#x", n, dst))
		return
	}
	p.grown(C.lt_prog_zero(p.c, C.uint64_t(dst), C.size_t(n)))
}

// captured reports whether capture has made the program a graph.
func (p *program) captured() bool { return p.c != nil && C.lt_prog_captured(p.c) != 0 }

// ops is the number of recorded ops.
func (p *program) ops() int {
	if p.c == nil {
		return 0
	}
	return int(C.lt_prog_len(p.c))
}

// capture turns the program into a CUDA graph: it runs the ops once on
// the stream (loading lazily loaded kernels and surfacing errors outside
// capture), then captures them (cuStreamBeginCapture_v2 in thread-local
// mode, the ops, cuStreamEndCapture) and instantiates the graph
// (cuGraphInstantiateWithFlags(0)). Afterwards run replays it with
// cuGraphLaunch. All of it happens in one C call, so on one OS thread.
// An empty program is not captured.
func (p *program) capture() error {
	if p.err != nil {
		return p.err
	}
	if err := p.g.broken(); err != nil {
		return err
	}
	if p.ops() == 0 {
		return nil
	}
	return p.g.check(C.lt_prog_capture(p.g.ctx, p.c))
}

// free releases the graph exec, the graph and the op list; later calls
// are no-ops.
func (p *program) free() {
	if p.c != nil {
		C.lt_prog_free(p.g.ctx, p.c)
		p.c = nil
	}
	if p.err == nil {
		p.err = errs.New(errs.Closed, "cuda: program used after free")
	}
}
