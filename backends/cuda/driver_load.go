//go:build cuda && cgo

package cuda

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"os"
	"sync"
	"unsafe"

	"github.com/lintel-ml/lintel/internal/errs"
)

var (
	driverOnce sync.Once
	driverErr  error
)

// loadDriver dlopens libcuda.so.1 once, resolves the shim's function
// table and calls cuInit(0). Without the library it returns an
// errs.ResourceUnavailable error naming libcuda.so.1 and dlerror's text;
// a missing function is named the same way.
func loadDriver() error {
	driverOnce.Do(func() { driverErr = loadDriverOnce() })
	return driverErr
}

func loadDriverOnce() error {
	var msg [512]C.char
	var st C.lt_status
	switch C.lt_load_driver(&msg[0], C.size_t(len(msg)), &st) {
	case 0:
		return nil
	case 1:
		return errs.New(errs.ResourceUnavailable, "cuda: cannot load libcuda.so.1 (no NVIDIA driver?): %s", C.GoString(&msg[0]))
	case 2:
		return errs.New(errs.ResourceUnavailable, "cuda: libcuda.so.1 lacks %s (driver too old?)", C.GoString(&msg[0]))
	default:
		return statusError(st)
	}
}

// deviceCount returns the number of CUDA devices.
func deviceCount() (int, error) {
	if err := loadDriver(); err != nil {
		return 0, err
	}
	var n C.int
	if err := statusError(C.lt_device_count(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

var (
	blasOnce sync.Once
	blasErr  error
)

// loadBlas dlopens cuBLAS once: the file named by LINTEL_CUBLAS when set,
// else libcublas.so.13 then libcublas.so.12, each by the default search
// path and then in /usr/local/cuda/lib64,
// /usr/local/cuda/targets/x86_64-linux/lib and /usr/lib/x86_64-linux-gnu.
func loadBlas() error {
	blasOnce.Do(func() { blasErr = loadBlasOnce() })
	return blasErr
}

func loadBlasOnce() error {
	var msg [512]C.char
	var override *C.char
	if p := os.Getenv("LINTEL_CUBLAS"); p != "" {
		override = C.CString(p)
		defer C.free(unsafe.Pointer(override))
	}
	switch C.lt_load_blas(override, &msg[0], C.size_t(len(msg))) {
	case 0:
		return nil
	case 1:
		if override != nil {
			return errs.New(errs.ResourceUnavailable, "cuda: cannot load cuBLAS from LINTEL_CUBLAS: %s", C.GoString(&msg[0]))
		}
		return errs.New(errs.ResourceUnavailable, "cuda: cannot load cuBLAS (libcublas.so.13 or .12): %s", C.GoString(&msg[0]))
	default:
		return errs.New(errs.ResourceUnavailable, "cuda: cuBLAS lacks %s", C.GoString(&msg[0]))
	}
}
