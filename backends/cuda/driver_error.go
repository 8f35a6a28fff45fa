//go:build cuda && cgo

package cuda

import (
	"strconv"
	"strings"

	"github.com/lintel-ml/lintel/internal/errs"
)

// driverError is a failed driver or cuBLAS call.
type driverError struct {
	op   string // the failed function, e.g. "cuMemAlloc_v2" or "cublasSgemm_v2"
	code int    // its CUresult, or cublasStatus_t for a cuBLAS function
	name string // the code's name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"; empty when unknown
}

// Error reads "cuda: cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2)".
func (e *driverError) Error() string {
	name := e.name
	if name == "" {
		name = "unknown error"
	}
	return "cuda: " + e.op + ": " + name + " (" + strconv.Itoa(e.code) + ")"
}

// blas reports whether the failed call is a cuBLAS function.
func (e *driverError) blas() bool { return strings.HasPrefix(e.op, "cublas") }

// Unwrap returns errs.ResourceUnavailable when the call failed for want
// of a device, a driver, memory or support, errs.ExecutionFailed
// otherwise, so errors.Is matches compute's sentinels.
func (e *driverError) Unwrap() error {
	if e.blas() {
		switch e.code {
		case 1, 3, 8, 15, 16: // NOT_INITIALIZED, ALLOC_FAILED, ARCH_MISMATCH, NOT_SUPPORTED, LICENSE_ERROR
			return errs.ResourceUnavailable
		}
		return errs.ExecutionFailed
	}
	switch e.code {
	case 2, // CUDA_ERROR_OUT_OF_MEMORY
		3,   // CUDA_ERROR_NOT_INITIALIZED
		34,  // CUDA_ERROR_STUB_LIBRARY
		46,  // CUDA_ERROR_DEVICE_UNAVAILABLE
		100, // CUDA_ERROR_NO_DEVICE
		101, // CUDA_ERROR_INVALID_DEVICE
		102, // CUDA_ERROR_DEVICE_NOT_LICENSED
		209, // CUDA_ERROR_NO_BINARY_FOR_GPU
		221, // CUDA_ERROR_JIT_COMPILER_NOT_FOUND
		222, // CUDA_ERROR_UNSUPPORTED_PTX_VERSION
		223, // CUDA_ERROR_JIT_COMPILATION_DISABLED
		801, // CUDA_ERROR_NOT_SUPPORTED
		802, // CUDA_ERROR_SYSTEM_NOT_READY
		803, // CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
		804: // CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
		return errs.ResourceUnavailable
	}
	return errs.ExecutionFailed
}

// sticky reports whether the error leaves the context unusable: cuda.h
// documents these as leaving "the process in an inconsistent state",
// after which every CUDA call returns the same error. cuBLAS statuses are
// never sticky themselves (a fault in a cuBLAS kernel surfaces as a
// driver error at the next synchronize).
func (e *driverError) sticky() bool {
	if e.blas() {
		return false
	}
	switch e.code {
	case 214, // CUDA_ERROR_ECC_UNCORRECTABLE
		220, // CUDA_ERROR_NVLINK_UNCORRECTABLE
		700, // CUDA_ERROR_ILLEGAL_ADDRESS
		702, // CUDA_ERROR_LAUNCH_TIMEOUT
		709, // CUDA_ERROR_CONTEXT_IS_DESTROYED
		710, // CUDA_ERROR_ASSERT
		714, // CUDA_ERROR_HARDWARE_STACK_ERROR
		715, // CUDA_ERROR_ILLEGAL_INSTRUCTION
		716, // CUDA_ERROR_MISALIGNED_ADDRESS
		717, // CUDA_ERROR_INVALID_ADDRESS_SPACE
		718, // CUDA_ERROR_INVALID_PC
		719, // CUDA_ERROR_LAUNCH_FAILED
		911, // CUDA_ERROR_EXTERNAL_DEVICE
		999: // CUDA_ERROR_UNKNOWN
		return true
	}
	return false
}

// blasStatusNames names cuBLAS statuses when cublasGetStatusName is
// absent (values from cublas_api.h).
var blasStatusNames = map[int]string{
	0:  "CUBLAS_STATUS_SUCCESS",
	1:  "CUBLAS_STATUS_NOT_INITIALIZED",
	3:  "CUBLAS_STATUS_ALLOC_FAILED",
	7:  "CUBLAS_STATUS_INVALID_VALUE",
	8:  "CUBLAS_STATUS_ARCH_MISMATCH",
	11: "CUBLAS_STATUS_MAPPING_ERROR",
	13: "CUBLAS_STATUS_EXECUTION_FAILED",
	14: "CUBLAS_STATUS_INTERNAL_ERROR",
	15: "CUBLAS_STATUS_NOT_SUPPORTED",
	16: "CUBLAS_STATUS_LICENSE_ERROR",
}
