//go:build openblas

package bench

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>
*/
import "C"

import "unsafe"

// blasSgemm computes C = A·B for row-major n×n matrices with OpenBLAS's
// cblas_sgemm, the reference the GEMM comparison measures against.
func blasSgemm(n int, a, b, c []float32) {
	C.cblas_sgemm(C.CblasRowMajor, C.CblasNoTrans, C.CblasNoTrans, C.blasint(n), C.blasint(n), C.blasint(n),
		1, (*C.float)(unsafe.Pointer(&a[0])), C.blasint(n), (*C.float)(unsafe.Pointer(&b[0])), C.blasint(n),
		0, (*C.float)(unsafe.Pointer(&c[0])), C.blasint(n))
}

// blasOneThread makes OpenBLAS run on the calling thread only.
func blasOneThread() { C.openblas_set_num_threads(1) }
