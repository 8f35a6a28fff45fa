//go:build cuda && cgo

package cuda

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"bytes"
	"unsafe"

	"github.com/lintel-ml/lintel/internal/errs"
)

// module is a loaded PTX module (CUmodule).
type module struct {
	g   *gpu
	mod C.uintptr_t
}

// function is a kernel of a module (CUfunction).
type function uintptr

// jitLogSize is the size of each JIT log buffer, terminating NUL included.
const jitLogSize = 16 << 10

// loadModule JIT-compiles PTX text for the device (cuModuleLoadDataEx). A
// failure's error includes the JIT compiler's error log.
func (g *gpu) loadModule(ptx []byte) (*module, error) {
	if err := g.broken(); err != nil {
		return nil, err
	}
	if len(ptx) == 0 || bytes.IndexByte(ptx, 0) >= 0 {
		return nil, errs.New(errs.InvalidArtifact, "cuda: PTX image is empty or holds a NUL byte")
	}
	// The driver reads PTX up to a NUL; copy it into C memory with one.
	image := C.CBytes(append(ptx[:len(ptx):len(ptx)], 0))
	defer C.free(image)
	info := make([]byte, jitLogSize)
	elog := make([]byte, jitLogSize)
	var mod C.uintptr_t
	st := C.lt_module_load(g.ctx, image, &mod,
		(*C.char)(unsafe.Pointer(&info[0])), C.uint(len(info)),
		(*C.char)(unsafe.Pointer(&elog[0])), C.uint(len(elog)))
	if err := g.check(st); err != nil {
		d, ok := err.(*driverError)
		if !ok {
			return nil, err
		}
		return nil, errs.Wrap(d.Unwrap(), d, "cuda: PTX does not load; JIT log: %s", cstr(elog))
	}
	return &module{g: g, mod: mod}, nil
}

// cstr is b up to its first NUL, with surrounding space trimmed.
func cstr(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "(empty)"
	}
	return string(b)
}

// function looks a kernel up by its name (cuModuleGetFunction).
func (m *module) function(name string) (function, error) {
	if err := m.g.broken(); err != nil {
		return 0, err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var fn C.uintptr_t
	if err := m.g.check(C.lt_module_function(m.g.ctx, m.mod, cname, &fn)); err != nil {
		return 0, errs.Wrap(errs.ExecutionFailed, err, "cuda: kernel %q", name)
	}
	return function(fn), nil
}

// unload unloads the module; later calls are no-ops.
func (m *module) unload() {
	if m.mod != 0 {
		C.lt_module_unload(m.g.ctx, m.mod)
		m.mod = 0
	}
}
