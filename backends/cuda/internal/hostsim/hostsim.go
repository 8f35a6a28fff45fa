//go:build cuda && cgo

// Package hostsim runs the CUDA backend's kernels (backends/cuda,
// kernels.cu) on the CPU, to test the kernel source on machines without a
// GPU or a CUDA toolkit.
//
// kernels.cu is compiled here a second time, as plain C++ with the host
// flavour of cudart_compat.h (from the copies kernels_cu.h and
// cudart_compat.h that go generate writes here, so that cmd/go rebuilds
// the simulation whenever they change): threadIdx and blockIdx are thread-locals,
// and Launch runs the blocks of a grid one after another, each with
// blockDim real threads, so that __syncthreads() is a real barrier and
// shared memory is shared by the block's threads only.
//
// Rules:
//   - Launch takes what cuLaunchKernel takes: the kernel's name, the grid
//     and block dimensions, the dynamic shared memory size, and the packed
//     parameter buffer (8-byte device pointers, then the arguments struct,
//     each at its natural alignment). Here the pointers are host addresses:
//     the caller keeps the memory they point to alive and pinned.
//   - Bad launches return errors matching internal/errs sentinels, never
//     panic. Out-of-bounds accesses inside a kernel are not caught here:
//     tests guard their buffers.
//   - The simulation runs one launch at a time, and is for tests: a block
//     of 256 threads costs 256 thread starts per launch.
package hostsim

// #cgo CXXFLAGS: -std=c++17 -O2 -pthread
// #cgo LDFLAGS: -pthread -lm
// #include <stdlib.h>
// #include "sim.h"
import "C"

import (
	"runtime"
	"unsafe"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Kernels returns the names of the kernels the simulation can run.
func Kernels() []string {
	n := int(C.lt_sim_kernels())
	names := make([]string, n)
	for i := range names {
		names[i] = C.GoString(C.lt_sim_kernel_name(C.int(i)))
	}
	return names
}

// ParamSize returns the size in bytes of a kernel's packed parameter
// buffer, or -1 when there is no such kernel.
func ParamSize(name string) int {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return int(C.lt_sim_param_size(cs))
}

// Launch runs kernel name over grid blocks of block threads. params is the
// packed parameter buffer; its pointers must point to memory the caller
// keeps alive (see Pointer). shmem is the dynamic shared memory size,
// which no kernel uses: it must be 0.
func Launch(name string, grid, block [3]uint32, shmem int, params []byte) error {
	if shmem != 0 {
		return errs.New(errs.Unsupported, "hostsim: kernel %s: %d bytes of dynamic shared memory, the kernels declare none", name, shmem)
	}
	if len(params) == 0 {
		return errs.New(errs.InvalidArtifact, "hostsim: kernel %s: empty parameter buffer", name)
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&params[0])
	cg := [3]C.uint{C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2])}
	cb := [3]C.uint{C.uint(block[0]), C.uint(block[1]), C.uint(block[2])}
	rc := C.lt_sim_launch(cs, &cg[0], &cb[0], (*C.uchar)(unsafe.Pointer(&params[0])), C.size_t(len(params)))
	switch rc {
	case C.LT_SIM_OK:
		return nil
	case C.LT_SIM_NO_KERNEL:
		return errs.New(errs.Unsupported, "hostsim: no kernel %q in kernels.cu", name)
	case C.LT_SIM_BAD_PARAMS:
		return errs.New(errs.InvalidArtifact, "hostsim: kernel %s takes %d bytes of parameters, got %d", name, ParamSize(name), len(params))
	case C.LT_SIM_BAD_GEOMETRY:
		return errs.New(errs.ShapeMismatch, "hostsim: kernel %s: bad launch geometry grid %v block %v (every dimension at least 1, at most 1024 threads per block)", name, grid, block)
	}
	return errs.New(errs.ExecutionFailed, "hostsim: kernel %s: launch returned %d", name, int(rc))
}
