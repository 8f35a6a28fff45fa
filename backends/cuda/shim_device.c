//go:build cuda && cgo

#include "shim_lib.h"

lt_status lt_device_count(int *n) {
	LT_CU(cuDeviceGetCount, n);
	return LT_OK;
}

// lt_device_open retains ordinal's primary context and reads what the
// Go side reports about the device. On failure after the retain, the
// context is released again.
lt_status lt_device_open(int ordinal, int *dev, uintptr_t *ctx, char *name, int namelen,
	int *major, int *minor, size_t *total) {
	lt_CUdevice d;
	lt_CUcontext c = NULL;
	LT_CU(cuDeviceGet, &d, ordinal);
	LT_CU(cuDevicePrimaryCtxRetain, &c, d);
	lt_status st = LT_OK;
	lt_CUresult r;
	if ((r = lt_cu.cuCtxSetCurrent(c)) != LT_CUDA_SUCCESS) {
		st = lt_fail(r, LT_OP_cuCtxSetCurrent);
	} else if ((r = lt_cu.cuDeviceGetName(name, namelen, d)) != LT_CUDA_SUCCESS) {
		st = lt_fail(r, LT_OP_cuDeviceGetName);
	} else if ((r = lt_cu.cuDeviceGetAttribute(major, LT_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d)) != LT_CUDA_SUCCESS ||
		(r = lt_cu.cuDeviceGetAttribute(minor, LT_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d)) != LT_CUDA_SUCCESS) {
		st = lt_fail(r, LT_OP_cuDeviceGetAttribute);
	} else if ((r = lt_cu.cuDeviceTotalMem_v2(total, d)) != LT_CUDA_SUCCESS) {
		st = lt_fail(r, LT_OP_cuDeviceTotalMem_v2);
	}
	if (st.op != 0) {
		lt_cu.cuDevicePrimaryCtxRelease_v2(d);
		return st;
	}
	*dev = d;
	*ctx = (uintptr_t)c;
	return LT_OK;
}

lt_status lt_device_close(int dev) {
	LT_CU(cuDevicePrimaryCtxRelease_v2, dev);
	return LT_OK;
}

lt_status lt_alloc(uintptr_t ctx, size_t n, uint64_t *p) {
	lt_CUdeviceptr d = 0;
	LT_SET(ctx);
	LT_CU(cuMemAlloc_v2, &d, n);
	*p = d;
	return LT_OK;
}

lt_status lt_free(uintptr_t ctx, uint64_t p) {
	LT_SET(ctx);
	LT_CU(cuMemFree_v2, p);
	return LT_OK;
}

lt_status lt_alloc_host(uintptr_t ctx, size_t n, void **p) {
	LT_SET(ctx);
	LT_CU(cuMemHostAlloc, p, n, LT_CU_MEMHOSTALLOC_PORTABLE);
	return LT_OK;
}

lt_status lt_free_host(uintptr_t ctx, void *p) {
	LT_SET(ctx);
	LT_CU(cuMemFreeHost, p);
	return LT_OK;
}

// lt_upload, lt_download and lt_memset work on the legacy default
// stream. From pageable memory cuMemcpyHtoD may return before the DMA
// lands, and cuMemsetD8 is asynchronous for device memory, and programs
// run on non-blocking streams that do not wait for the legacy stream: so
// upload and memset synchronize it before returning.
lt_status lt_upload(uintptr_t ctx, uint64_t dst, const void *src, size_t n) {
	LT_SET(ctx);
	LT_CU(cuMemcpyHtoD_v2, dst, src, n);
	LT_CU(cuStreamSynchronize, NULL);
	return LT_OK;
}

lt_status lt_download(uintptr_t ctx, void *dst, uint64_t src, size_t n) {
	LT_SET(ctx);
	LT_CU(cuMemcpyDtoH_v2, dst, src, n);
	return LT_OK;
}

lt_status lt_memset(uintptr_t ctx, uint64_t dst, size_t n) {
	LT_SET(ctx);
	LT_CU(cuMemsetD8_v2, dst, 0, n);
	LT_CU(cuStreamSynchronize, NULL);
	return LT_OK;
}

// lt_module_load JIT-compiles a NUL-terminated PTX image, with info and
// error log buffers (their sizes include the terminating NUL).
lt_status lt_module_load(uintptr_t ctx, const void *image, uintptr_t *mod,
	char *info, unsigned int infolen, char *errlog, unsigned int errlen) {
	int opts[4] = {
		LT_CU_JIT_INFO_LOG_BUFFER,
		LT_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
		LT_CU_JIT_ERROR_LOG_BUFFER,
		LT_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
	};
	void *vals[4] = {
		info,
		(void *)(uintptr_t)infolen,
		errlog,
		(void *)(uintptr_t)errlen,
	};
	lt_CUmodule m = NULL;
	LT_SET(ctx);
	LT_CU(cuModuleLoadDataEx, &m, image, 4, opts, vals);
	*mod = (uintptr_t)m;
	return LT_OK;
}

lt_status lt_module_function(uintptr_t ctx, uintptr_t mod, const char *name, uintptr_t *fn) {
	lt_CUfunction f = NULL;
	LT_SET(ctx);
	LT_CU(cuModuleGetFunction, &f, (lt_CUmodule)mod, name);
	*fn = (uintptr_t)f;
	return LT_OK;
}

lt_status lt_module_unload(uintptr_t ctx, uintptr_t mod) {
	LT_SET(ctx);
	LT_CU(cuModuleUnload, (lt_CUmodule)mod);
	return LT_OK;
}

lt_status lt_stream_create(uintptr_t ctx, uintptr_t *s) {
	lt_CUstream st = NULL;
	LT_SET(ctx);
	LT_CU(cuStreamCreate, &st, LT_CU_STREAM_NON_BLOCKING);
	*s = (uintptr_t)st;
	return LT_OK;
}

lt_status lt_stream_destroy(uintptr_t ctx, uintptr_t s) {
	LT_SET(ctx);
	LT_CU(cuStreamDestroy_v2, (lt_CUstream)s);
	return LT_OK;
}

lt_status lt_stream_sync(uintptr_t ctx, uintptr_t s) {
	LT_SET(ctx);
	LT_CU(cuStreamSynchronize, (lt_CUstream)s);
	return LT_OK;
}

// lt_blas_create makes a cuBLAS handle bound to stream s with ws as its
// workspace. cublasSetStream resets the workspace to cuBLAS's default
// pool, so the workspace is set after the stream. Default math (no TF32).
lt_status lt_blas_create(uintptr_t ctx, uintptr_t s, uint64_t ws, size_t wslen, uintptr_t *h) {
	void *hd = NULL;
	LT_SET(ctx);
	LT_BLAS(cublasCreate_v2, &hd);
	int r;
	int op = 0;
	if ((r = lt_blas.cublasSetStream_v2(hd, (lt_CUstream)s)) != LT_CUBLAS_STATUS_SUCCESS) {
		op = LT_OP_cublasSetStream_v2;
	} else if ((r = lt_blas.cublasSetWorkspace_v2(hd, (void *)(uintptr_t)ws, wslen)) != LT_CUBLAS_STATUS_SUCCESS) {
		op = LT_OP_cublasSetWorkspace_v2;
	} else if ((r = lt_blas.cublasSetMathMode(hd, LT_CUBLAS_DEFAULT_MATH)) != LT_CUBLAS_STATUS_SUCCESS) {
		op = LT_OP_cublasSetMathMode;
	}
	if (op != 0) {
		lt_blas.cublasDestroy_v2(hd);
		return lt_fail(r, op);
	}
	*h = (uintptr_t)hd;
	return LT_OK;
}

lt_status lt_blas_math(uintptr_t ctx, uintptr_t h, int mode) {
	LT_SET(ctx);
	LT_BLAS(cublasSetMathMode, (void *)h, mode);
	return LT_OK;
}

lt_status lt_blas_destroy(uintptr_t ctx, uintptr_t h) {
	LT_SET(ctx);
	LT_BLAS(cublasDestroy_v2, (void *)h);
	return LT_OK;
}
