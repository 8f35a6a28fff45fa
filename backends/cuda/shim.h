//go:build cuda && cgo

// The C side of the CUDA driver layer. No CUDA header is included: every
// type the shim passes to libcuda and libcublas is declared here with the
// same size and meaning as in CUDA's own headers (cuda.h, cublas_api.h,
// library_types.h), and every function is resolved at run time with dlsym
// under its versioned name.
#ifndef LINTEL_CUDA_SHIM_H
#define LINTEL_CUDA_SHIM_H

#include <stddef.h>
#include <stdint.h>

// CUDA driver types (cuda.h).
typedef int lt_CUresult;
typedef int lt_CUdevice;
typedef unsigned long long lt_CUdeviceptr;
typedef void *lt_CUcontext;
typedef void *lt_CUmodule;
typedef void *lt_CUfunction;
typedef void *lt_CUstream;
typedef void *lt_CUgraph;
typedef void *lt_CUgraphExec;

// Values from cuda.h.
#define LT_CUDA_SUCCESS 0
#define LT_CUDA_ERROR_INVALID_VALUE 1
#define LT_CUDA_ERROR_OUT_OF_MEMORY 2
#define LT_CU_STREAM_NON_BLOCKING 0x1
#define LT_CU_MEMHOSTALLOC_PORTABLE 0x01
#define LT_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL 1
#define LT_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define LT_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define LT_CU_JIT_INFO_LOG_BUFFER 3
#define LT_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES 4
#define LT_CU_JIT_ERROR_LOG_BUFFER 5
#define LT_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6
#define LT_CU_LAUNCH_PARAM_END ((void *)0x00)
#define LT_CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define LT_CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

// Values from cublas_api.h and library_types.h.
#define LT_CUBLAS_STATUS_SUCCESS 0
#define LT_CUBLAS_STATUS_INVALID_VALUE 7
#define LT_CUBLAS_STATUS_NOT_SUPPORTED 15
#define LT_CUBLAS_OP_N 0
#define LT_CUBLAS_OP_T 1
#define LT_CUBLAS_DEFAULT_MATH 0
#define LT_CUBLAS_TF32_TENSOR_OP_MATH 3
#define LT_CUBLAS_COMPUTE_32F 68
#define LT_CUBLAS_GEMM_DEFAULT (-1)
#define LT_CUDA_R_32F 0
#define LT_CUDA_R_16F 2
#define LT_CUDA_R_16BF 14

// The libcuda functions the shim calls: X(name, parameter list). Each
// returns a CUresult. Missing any of them fails loading.
#define LT_CU_FUNCS(X) \
	X(cuInit, (unsigned int flags)) \
	X(cuDeviceGetCount, (int *count)) \
	X(cuDeviceGet, (lt_CUdevice *dev, int ordinal)) \
	X(cuDeviceGetName, (char *name, int len, lt_CUdevice dev)) \
	X(cuDeviceGetAttribute, (int *v, int attr, lt_CUdevice dev)) \
	X(cuDeviceTotalMem_v2, (size_t *bytes, lt_CUdevice dev)) \
	X(cuDevicePrimaryCtxRetain, (lt_CUcontext *ctx, lt_CUdevice dev)) \
	X(cuDevicePrimaryCtxRelease_v2, (lt_CUdevice dev)) \
	X(cuCtxSetCurrent, (lt_CUcontext ctx)) \
	X(cuGetErrorName, (lt_CUresult err, const char **name)) \
	X(cuMemAlloc_v2, (lt_CUdeviceptr *p, size_t n)) \
	X(cuMemFree_v2, (lt_CUdeviceptr p)) \
	X(cuMemHostAlloc, (void **p, size_t n, unsigned int flags)) \
	X(cuMemFreeHost, (void *p)) \
	X(cuMemcpyHtoD_v2, (lt_CUdeviceptr dst, const void *src, size_t n)) \
	X(cuMemcpyDtoH_v2, (void *dst, lt_CUdeviceptr src, size_t n)) \
	X(cuMemcpyHtoDAsync_v2, (lt_CUdeviceptr dst, const void *src, size_t n, lt_CUstream s)) \
	X(cuMemcpyDtoHAsync_v2, (void *dst, lt_CUdeviceptr src, size_t n, lt_CUstream s)) \
	X(cuMemcpyDtoDAsync_v2, (lt_CUdeviceptr dst, lt_CUdeviceptr src, size_t n, lt_CUstream s)) \
	X(cuMemsetD8Async, (lt_CUdeviceptr dst, unsigned char v, size_t n, lt_CUstream s)) \
	X(cuMemsetD8_v2, (lt_CUdeviceptr dst, unsigned char v, size_t n)) \
	X(cuModuleLoadDataEx, (lt_CUmodule *m, const void *image, unsigned int nopt, int *opts, void **vals)) \
	X(cuModuleGetFunction, (lt_CUfunction *f, lt_CUmodule m, const char *name)) \
	X(cuModuleUnload, (lt_CUmodule m)) \
	X(cuLaunchKernel, (lt_CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, \
		unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem, \
		lt_CUstream s, void **params, void **extra)) \
	X(cuStreamCreate, (lt_CUstream *s, unsigned int flags)) \
	X(cuStreamDestroy_v2, (lt_CUstream s)) \
	X(cuStreamSynchronize, (lt_CUstream s)) \
	X(cuStreamBeginCapture_v2, (lt_CUstream s, int mode)) \
	X(cuStreamEndCapture, (lt_CUstream s, lt_CUgraph *g)) \
	X(cuGraphInstantiateWithFlags, (lt_CUgraphExec *e, lt_CUgraph g, unsigned long long flags)) \
	X(cuGraphLaunch, (lt_CUgraphExec e, lt_CUstream s)) \
	X(cuGraphExecDestroy, (lt_CUgraphExec e)) \
	X(cuGraphDestroy, (lt_CUgraph g))

// Optional libcuda functions: NULL when absent.
#define LT_CU_OPTIONAL(X) \
	X(cuPointerGetAttribute, (void *data, int attr, lt_CUdeviceptr p))

// The libcublas functions the shim calls. Each returns a cublasStatus_t.
#define LT_BLAS_FUNCS(X) \
	X(cublasCreate_v2, (void **h)) \
	X(cublasDestroy_v2, (void *h)) \
	X(cublasSetStream_v2, (void *h, lt_CUstream s)) \
	X(cublasSetMathMode, (void *h, int mode)) \
	X(cublasSetWorkspace_v2, (void *h, void *ws, size_t n)) \
	X(cublasSgemm_v2, (void *h, int ta, int tb, int m, int n, int k, \
		const float *alpha, const float *a, int lda, const float *b, int ldb, \
		const float *beta, float *c, int ldc)) \
	X(cublasSgemmStridedBatched, (void *h, int ta, int tb, int m, int n, int k, \
		const float *alpha, const float *a, int lda, long long sa, \
		const float *b, int ldb, long long sb, const float *beta, \
		float *c, int ldc, long long sc, int batch)) \
	X(cublasGemmEx, (void *h, int ta, int tb, int m, int n, int k, \
		const void *alpha, const void *a, int atype, int lda, \
		const void *b, int btype, int ldb, const void *beta, \
		void *c, int ctype, int ldc, int compute, int algo)) \
	X(cublasGemmStridedBatchedEx, (void *h, int ta, int tb, int m, int n, int k, \
		const void *alpha, const void *a, int atype, int lda, long long sa, \
		const void *b, int btype, int ldb, long long sb, const void *beta, \
		void *c, int ctype, int ldc, long long sc, int batch, int compute, int algo))

// Operation ids: which call failed. Index 0 is success; the names are
// the functions' exported names (lt_op_name), and a few shim checks.
#define LT_OP_ENUM(name, params) LT_OP_##name,
enum {
	LT_OP_NONE = 0,
	LT_CU_FUNCS(LT_OP_ENUM)
	LT_CU_OPTIONAL(LT_OP_ENUM)
	LT_OP_FIRST_BLAS,
	LT_BLAS_FUNCS(LT_OP_ENUM)
	LT_OP_RUN_XFER,
	LT_OP_PROGRAM,
	LT_OP_COUNT
};
#undef LT_OP_ENUM

// lt_status is a call's result: op is 0 on success, else the operation
// that failed, and code its CUresult (cublasStatus_t for a cuBLAS
// function; CUDA_ERROR_INVALID_VALUE for the shim's own checks).
typedef struct {
	int32_t code;
	int32_t op;
} lt_status;

// lt_xfer is one copy around a program run; Go's xfer has the same layout.
typedef struct {
	uint64_t dev;
	uintptr_t host;
	size_t n;
	uint32_t kind;
	uint32_t pad;
} lt_xfer;

enum { LT_XFER_H2D = 0, LT_XFER_D2H = 1, LT_XFER_D2D = 2 };

// lt_gemm is one GEMM in cuBLAS's column-major terms. atype and btype are
// cudaDataType values; C is always float32 and compute 32F.
typedef struct {
	int32_t transa, transb;
	int32_t m, n, k;
	int32_t lda, ldb, ldc;
	int32_t batch;
	int32_t atype, btype;
	float alpha, beta;
	uint64_t a, b, c;
	int64_t stridea, strideb, stridec;
} lt_gemm;

typedef struct lt_prog lt_prog;

// Loading and names.
int lt_load_driver(char *msg, size_t msglen, lt_status *st);
int lt_load_blas(const char *override, char *msg, size_t msglen);
const char *lt_op_name(int op);
const char *lt_cu_error_name(int code);
const char *lt_blas_status_name(int code);

// Devices and memory. Every call taking ctx makes it current first.
lt_status lt_device_count(int *n);
lt_status lt_device_open(int ordinal, int *dev, uintptr_t *ctx, char *name, int namelen,
	int *major, int *minor, size_t *total);
lt_status lt_device_close(int dev);
lt_status lt_alloc(uintptr_t ctx, size_t n, uint64_t *p);
lt_status lt_free(uintptr_t ctx, uint64_t p);
lt_status lt_alloc_host(uintptr_t ctx, size_t n, void **p);
lt_status lt_free_host(uintptr_t ctx, void *p);
lt_status lt_upload(uintptr_t ctx, uint64_t dst, const void *src, size_t n);
lt_status lt_download(uintptr_t ctx, void *dst, uint64_t src, size_t n);
lt_status lt_memset(uintptr_t ctx, uint64_t dst, size_t n);

// Modules and streams.
lt_status lt_module_load(uintptr_t ctx, const void *image, uintptr_t *mod,
	char *info, unsigned int infolen, char *errlog, unsigned int errlen);
lt_status lt_module_function(uintptr_t ctx, uintptr_t mod, const char *name, uintptr_t *fn);
lt_status lt_module_unload(uintptr_t ctx, uintptr_t mod);
lt_status lt_stream_create(uintptr_t ctx, uintptr_t *s);
lt_status lt_stream_destroy(uintptr_t ctx, uintptr_t s);
lt_status lt_stream_sync(uintptr_t ctx, uintptr_t s);

// cuBLAS.
lt_status lt_blas_create(uintptr_t ctx, uintptr_t s, uint64_t ws, size_t wslen, uintptr_t *h);
lt_status lt_blas_math(uintptr_t ctx, uintptr_t h, int mode);
lt_status lt_blas_destroy(uintptr_t ctx, uintptr_t h);

// Programs.
lt_prog *lt_prog_new(uintptr_t stream, uintptr_t blas);
int lt_prog_launch(lt_prog *p, uintptr_t fn, const uint32_t *grid, const uint32_t *block,
	uint32_t shmem, const void *params, size_t nparams);
int lt_prog_gemm(lt_prog *p, const lt_gemm *g);
int lt_prog_copy(lt_prog *p, uint64_t dst, uint64_t src, size_t n);
int lt_prog_zero(lt_prog *p, uint64_t dst, size_t n);
int lt_prog_len(const lt_prog *p);
int lt_prog_captured(const lt_prog *p);
lt_status lt_prog_capture(uintptr_t ctx, lt_prog *p);
void lt_prog_free(uintptr_t ctx, lt_prog *p);
lt_status lt_run(uintptr_t ctx, lt_prog *p, const lt_xfer *ins, int nin,
	const lt_xfer *outs, int nout);

// The stand-in driver for tests (shim_fake.c).
void lt_fake_install(void);
void lt_fake_fail(int op, int code);

#endif
