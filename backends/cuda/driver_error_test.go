//go:build cuda && cgo

package cuda

import (
	"errors"
	"testing"

	"github.com/lintel-ml/lintel/compute"
)

func TestDriverError(t *testing.T) {
	tests := []struct {
		err    driverError
		text   string
		kind   error
		sticky bool
	}{
		{driverError{"cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY"}, "cuda: cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2)", compute.ErrResourceUnavailable, false},
		{driverError{"cuInit", 100, "CUDA_ERROR_NO_DEVICE"}, "cuda: cuInit: CUDA_ERROR_NO_DEVICE (100)", compute.ErrResourceUnavailable, false},
		{driverError{"cuInit", 34, "CUDA_ERROR_STUB_LIBRARY"}, "cuda: cuInit: CUDA_ERROR_STUB_LIBRARY (34)", compute.ErrResourceUnavailable, false},
		{driverError{"cuModuleLoadDataEx", 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}, "cuda: cuModuleLoadDataEx: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)", compute.ErrResourceUnavailable, false},
		{driverError{"cuLaunchKernel", 801, "CUDA_ERROR_NOT_SUPPORTED"}, "cuda: cuLaunchKernel: CUDA_ERROR_NOT_SUPPORTED (801)", compute.ErrResourceUnavailable, false},
		{driverError{"cuModuleLoadDataEx", 218, "CUDA_ERROR_INVALID_PTX"}, "cuda: cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (218)", compute.ErrExecutionFailed, false},
		{driverError{"cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE"}, "cuda: cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (1)", compute.ErrExecutionFailed, false},
		{driverError{"cuLaunchKernel", 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"}, "cuda: cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)", compute.ErrExecutionFailed, false},
		{driverError{"cuStreamSynchronize", 700, "CUDA_ERROR_ILLEGAL_ADDRESS"}, "cuda: cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 702, "CUDA_ERROR_LAUNCH_TIMEOUT"}, "cuda: cuStreamSynchronize: CUDA_ERROR_LAUNCH_TIMEOUT (702)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 710, "CUDA_ERROR_ASSERT"}, "cuda: cuStreamSynchronize: CUDA_ERROR_ASSERT (710)", compute.ErrExecutionFailed, true},
		{driverError{"cuGraphLaunch", 714, "CUDA_ERROR_HARDWARE_STACK_ERROR"}, "cuda: cuGraphLaunch: CUDA_ERROR_HARDWARE_STACK_ERROR (714)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"}, "cuda: cuStreamSynchronize: CUDA_ERROR_ILLEGAL_INSTRUCTION (715)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 716, "CUDA_ERROR_MISALIGNED_ADDRESS"}, "cuda: cuStreamSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (716)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 717, ""}, "cuda: cuStreamSynchronize: unknown error (717)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 718, "CUDA_ERROR_INVALID_PC"}, "cuda: cuStreamSynchronize: CUDA_ERROR_INVALID_PC (718)", compute.ErrExecutionFailed, true},
		{driverError{"cuStreamSynchronize", 719, "CUDA_ERROR_LAUNCH_FAILED"}, "cuda: cuStreamSynchronize: CUDA_ERROR_LAUNCH_FAILED (719)", compute.ErrExecutionFailed, true},
		{driverError{"cuLaunchKernel", 720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"}, "cuda: cuLaunchKernel: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (720)", compute.ErrExecutionFailed, false},
		{driverError{"cuMemFree_v2", 999, "CUDA_ERROR_UNKNOWN"}, "cuda: cuMemFree_v2: CUDA_ERROR_UNKNOWN (999)", compute.ErrExecutionFailed, true},
		{driverError{"cublasSgemm_v2", 7, "CUBLAS_STATUS_INVALID_VALUE"}, "cuda: cublasSgemm_v2: CUBLAS_STATUS_INVALID_VALUE (7)", compute.ErrExecutionFailed, false},
		{driverError{"cublasCreate_v2", 1, "CUBLAS_STATUS_NOT_INITIALIZED"}, "cuda: cublasCreate_v2: CUBLAS_STATUS_NOT_INITIALIZED (1)", compute.ErrResourceUnavailable, false},
		{driverError{"cublasGemmEx", 15, "CUBLAS_STATUS_NOT_SUPPORTED"}, "cuda: cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED (15)", compute.ErrResourceUnavailable, false},
		{driverError{"cublasGemmEx", 700, ""}, "cuda: cublasGemmEx: unknown error (700)", compute.ErrExecutionFailed, false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			e := &tt.err
			if got := e.Error(); got != tt.text {
				t.Errorf("Error() = %q, want %q", got, tt.text)
			}
			if !errors.Is(e, tt.kind) {
				t.Errorf("errors.Is(%v, %v) = false", e, tt.kind)
			}
			other := compute.ErrExecutionFailed
			if tt.kind == other {
				other = compute.ErrResourceUnavailable
			}
			if errors.Is(e, other) {
				t.Errorf("errors.Is(%v, %v) = true", e, other)
			}
			if got := e.sticky(); got != tt.sticky {
				t.Errorf("sticky() = %v, want %v", got, tt.sticky)
			}
		})
	}
}

// TestOpNames checks that the shim names every operation by the symbol
// it resolves, so errors name the exact versioned function.
func TestOpNames(t *testing.T) {
	seen := map[string]bool{}
	for i := 1; i < opCount; i++ {
		seen[opName(i)] = true
	}
	for _, name := range []string{
		"cuInit", "cuDeviceGetCount", "cuDeviceGet", "cuDeviceGetName", "cuDeviceGetAttribute",
		"cuDeviceTotalMem_v2", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2",
		"cuCtxSetCurrent", "cuGetErrorName", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemHostAlloc",
		"cuMemFreeHost", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpyHtoDAsync_v2",
		"cuMemcpyDtoHAsync_v2", "cuMemcpyDtoDAsync_v2", "cuMemsetD8Async", "cuMemsetD8_v2",
		"cuModuleLoadDataEx", "cuModuleGetFunction", "cuModuleUnload", "cuLaunchKernel",
		"cuStreamCreate", "cuStreamDestroy_v2", "cuStreamSynchronize", "cuStreamBeginCapture_v2",
		"cuStreamEndCapture", "cuGraphInstantiateWithFlags", "cuGraphLaunch", "cuGraphExecDestroy",
		"cuGraphDestroy", "cuPointerGetAttribute",
		"cublasCreate_v2", "cublasDestroy_v2", "cublasSetStream_v2", "cublasSetMathMode",
		"cublasSetWorkspace_v2", "cublasSgemm_v2", "cublasSgemmStridedBatched", "cublasGemmEx",
		"cublasGemmStridedBatchedEx",
	} {
		if !seen[name] {
			t.Errorf("shim has no operation %q", name)
		}
	}
	if opName(0) != "" || opName(-1) != "" || opName(opCount) != "" {
		t.Errorf("names out of range: %q %q %q", opName(0), opName(-1), opName(opCount))
	}
}
