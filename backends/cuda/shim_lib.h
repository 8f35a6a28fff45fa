//go:build cuda && cgo

// The function pointer tables, shared by the shim's C files.
#ifndef LINTEL_CUDA_SHIM_LIB_H
#define LINTEL_CUDA_SHIM_LIB_H

#include "shim.h"

#define LT_CU_FIELD(name, params) lt_CUresult (*name) params;
#define LT_BLAS_FIELD(name, params) int (*name) params;
typedef struct {
	LT_CU_FUNCS(LT_CU_FIELD)
	LT_CU_OPTIONAL(LT_CU_FIELD)
} lt_cu_table;
typedef struct {
	LT_BLAS_FUNCS(LT_BLAS_FIELD)
	const char *(*cublasGetStatusName)(int status);
} lt_blas_table;
#undef LT_CU_FIELD
#undef LT_BLAS_FIELD

extern lt_cu_table lt_cu;
extern lt_blas_table lt_blas;

// LT_OK and LT_FAIL build statuses; LT_CU and LT_BLAS call through the
// tables and return from the calling function on failure.
#define LT_OK ((lt_status){0, 0})
static inline lt_status lt_fail(int code, int op) {
	lt_status s = {code, op};
	if (code == 0) {
		s.op = 0;
	}
	return s;
}
#define LT_CU(name, ...)                                           \
	do {                                                           \
		lt_CUresult lt_r_ = lt_cu.name(__VA_ARGS__);               \
		if (lt_r_ != LT_CUDA_SUCCESS) return lt_fail(lt_r_, LT_OP_##name); \
	} while (0)
#define LT_BLAS(name, ...)                                         \
	do {                                                           \
		int lt_r_ = lt_blas.name(__VA_ARGS__);                     \
		if (lt_r_ != LT_CUBLAS_STATUS_SUCCESS) return lt_fail(lt_r_, LT_OP_##name); \
	} while (0)
#define LT_SET(ctx) LT_CU(cuCtxSetCurrent, (lt_CUcontext)(ctx))

#endif
