//go:build cuda && cgo

package cuda

/*
#include "shim.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/lintel-ml/lintel/internal/errs"
)

// devptr is a CUDA device address (CUdeviceptr).
type devptr uint64

// gpu is one device's primary context. Every shim call makes the context
// current on its OS thread first, since contexts are per thread and a
// goroutine may move between threads between calls.
type gpu struct {
	dev      C.int
	ctx      C.uintptr_t
	devName  string
	major    int
	minor    int
	total    int64
	fault    atomic.Pointer[error] // set once by the first sticky error
	closeOne sync.Once
}

// openGPU retains device ordinal's primary context and reads its name,
// compute capability and memory size.
func openGPU(ordinal int) (*gpu, error) {
	if err := loadDriver(); err != nil {
		return nil, err
	}
	g := &gpu{}
	var name [256]C.char
	var major, minor C.int
	var total C.size_t
	st := C.lt_device_open(C.int(ordinal), &g.dev, &g.ctx, &name[0], C.int(len(name)), &major, &minor, &total)
	if err := statusError(st); err != nil {
		return nil, err
	}
	g.devName = C.GoString(&name[0])
	g.major, g.minor, g.total = int(major), int(minor), int64(total)
	return g, nil
}

// close releases the primary context; later calls are no-ops. Free the
// device's programs, handles, streams, modules and memory first: when the
// last retain goes, the context and everything in it are destroyed.
func (g *gpu) close() {
	g.closeOne.Do(func() { C.lt_device_close(g.dev) })
}

// name is the device's name, e.g. "NVIDIA H100 80GB HBM3".
func (g *gpu) name() string { return g.devName }

// capability is the device's compute capability, e.g. 9, 0.
func (g *gpu) capability() (major, minor int) { return g.major, g.minor }

// totalMem is the device's memory in bytes.
func (g *gpu) totalMem() int64 { return g.total }

// broken returns nil while the device is usable, and after a sticky
// fault an errs.ExecutionFailed error naming it; every later call fails
// with that error.
func (g *gpu) broken() error {
	if p := g.fault.Load(); p != nil {
		return *p
	}
	return nil
}

// check turns a shim status into an error, marking g broken when the
// error is sticky.
func (g *gpu) check(st C.lt_status) error {
	if st.op == 0 {
		return nil
	}
	err := statusError(st)
	if d, ok := err.(*driverError); ok && d.sticky() {
		wrapped := errs.Wrap(errs.ExecutionFailed, d, "cuda: device %q unusable after a fault", g.devName)
		if g.fault.CompareAndSwap(nil, &wrapped) {
			return wrapped
		}
		return *g.fault.Load()
	}
	return err
}

// alloc allocates n bytes of device memory (cuMemAlloc_v2). Zero bytes
// give address 0 and no error.
func (g *gpu) alloc(n int) (devptr, error) {
	if err := g.broken(); err != nil {
		return 0, err
	}
	if n <= 0 {
		if n == 0 {
			return 0, nil
		}
		return 0, errs.New(errs.ExecutionFailed, "cuda: allocation of %d bytes", n)
	}
	var p C.uint64_t
	if err := g.check(C.lt_alloc(g.ctx, C.size_t(n), &p)); err != nil {
		return 0, err
	}
	return devptr(p), nil
}

// free releases device memory from alloc; 0 is ignored.
func (g *gpu) free(p devptr) {
	if p != 0 {
		C.lt_free(g.ctx, C.uint64_t(p))
	}
}

// allocHost allocates n bytes of pinned host memory
// (cuMemHostAlloc(CU_MEMHOSTALLOC_PORTABLE)). The slice views C memory:
// release it with freeHost, never let Go pointers be stored in it. Zero
// bytes give a nil slice and no error.
func (g *gpu) allocHost(n int) ([]byte, error) {
	if err := g.broken(); err != nil {
		return nil, err
	}
	if n <= 0 {
		if n == 0 {
			return nil, nil
		}
		return nil, errs.New(errs.ExecutionFailed, "cuda: pinned allocation of %d bytes", n)
	}
	var p unsafe.Pointer
	if err := g.check(C.lt_alloc_host(g.ctx, C.size_t(n), &p)); err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

// freeHost releases memory from allocHost; an empty slice is ignored.
func (g *gpu) freeHost(b []byte) {
	if cap(b) > 0 {
		C.lt_free_host(g.ctx, unsafe.Pointer(unsafe.SliceData(b)))
	}
}

// hostAddr is the address of b's first byte, for an xfer's host field.
// b must be pinned memory from allocHost (C memory the collector ignores).
func hostAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// upload copies src to device address dst (cuMemcpyHtoD_v2), for
// weights at load time. It returns once the data has landed, so work on
// any stream sees it.
func (g *gpu) upload(dst devptr, src []byte) error {
	if err := g.broken(); err != nil {
		return err
	}
	if len(src) == 0 {
		return nil
	}
	return g.check(C.lt_upload(g.ctx, C.uint64_t(dst), unsafe.Pointer(&src[0]), C.size_t(len(src))))
}

// download copies len(dst) bytes from device address src (cuMemcpyDtoH_v2)
// and returns once they have arrived. It does not wait for work on
// program streams; run does.
func (g *gpu) download(dst []byte, src devptr) error {
	if err := g.broken(); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	return g.check(C.lt_download(g.ctx, unsafe.Pointer(&dst[0]), C.uint64_t(src), C.size_t(len(dst))))
}

// memset zeroes n bytes at dst (cuMemsetD8_v2) and returns once done.
func (g *gpu) memset(dst devptr, n int) error {
	if err := g.broken(); err != nil {
		return err
	}
	if n <= 0 {
		return nil
	}
	return g.check(C.lt_memset(g.ctx, C.uint64_t(dst), C.size_t(n)))
}
