//go:build cuda && cgo

package cuda

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "shim.h"
*/
import "C"

// statusError turns a shim status into a *driverError, or nil on
// success. It allocates only on failure.
func statusError(st C.lt_status) error {
	if st.op == 0 {
		return nil
	}
	e := &driverError{op: C.GoString(C.lt_op_name(st.op)), code: int(st.code)}
	var name *C.char
	if e.blas() {
		name = C.lt_blas_status_name(st.code)
	} else {
		name = C.lt_cu_error_name(st.code)
	}
	if name != nil {
		e.name = C.GoString(name)
	} else if e.blas() {
		e.name = blasStatusNames[e.code]
	} else if st.op == C.LT_OP_RUN_XFER || st.op == C.LT_OP_PROGRAM {
		e.name = "CUDA_ERROR_INVALID_VALUE"
	}
	return e
}

// opName returns the shim's name for operation id op (tests).
func opName(op int) string { return C.GoString(C.lt_op_name(C.int(op))) }

// opCount is the number of shim operation ids (tests).
const opCount = int(C.LT_OP_COUNT)
