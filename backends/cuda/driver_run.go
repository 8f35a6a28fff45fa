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

var (
	errNilProgram     = errs.New(errs.ExecutionFailed, "cuda: run of a nil program")
	errForeignProgram = errs.New(errs.ExecutionFailed, "cuda: run of another device's program")
)

// Transfer kinds of an xfer.
const (
	xferH2D uint32 = C.LT_XFER_H2D // pinned host to device (ins)
	xferD2H uint32 = C.LT_XFER_D2H // device to pinned host (outs)
	xferD2D uint32 = C.LT_XFER_D2D // device to device: host holds the other device address
)

// xfer is one copy run does around the program. In ins it copies host to
// dev, in outs dev to host. host is a pinned host address (hostAddr of
// allocHost memory), or a device address when kind is xferD2D. Its
// layout is the shim's lt_xfer.
type xfer struct {
	dev  devptr
	host uintptr
	n    uintptr
	kind uint32
	_    uint32
}

// The layouts of xfer and lt_xfer agree (checked at compile time).
var (
	_ [unsafe.Sizeof(xfer{}) - C.sizeof_lt_xfer]struct{}
	_ [C.sizeof_lt_xfer - unsafe.Sizeof(xfer{})]struct{}
)

// run is one cgo call: make the context current, enqueue ins (H2D or D2D,
// asynchronous on the program's stream), replay the program (its graph
// when captured, else its ops), enqueue outs (D2H or D2D), synchronize
// the stream, and return the first failure (an asynchronous fault seen
// by the synchronize first). A sticky failure marks g broken. ins and
// outs are the caller's, preallocated: run allocates nothing.
func (g *gpu) run(p *program, ins, outs []xfer) error {
	if err := g.broken(); err != nil {
		return err
	}
	if p == nil {
		return errNilProgram
	}
	if p.g != g {
		return errForeignProgram
	}
	if p.err != nil {
		return p.err
	}
	var in, out *C.lt_xfer
	if len(ins) > 0 {
		in = (*C.lt_xfer)(unsafe.Pointer(&ins[0]))
	}
	if len(outs) > 0 {
		out = (*C.lt_xfer)(unsafe.Pointer(&outs[0]))
	}
	return g.check(C.lt_run(g.ctx, p.c, in, C.int(len(ins)), out, C.int(len(outs))))
}
