//go:build cuda && cgo

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "shim_lib.h"

lt_cu_table lt_cu;
lt_blas_table lt_blas;

static void *lt_cuda_handle;
static void *lt_blas_handle;

#define LT_NAME(name, params) #name,
static const char *const lt_op_names[LT_OP_COUNT] = {
	"",
	LT_CU_FUNCS(LT_NAME)
	LT_CU_OPTIONAL(LT_NAME)
	"",
	LT_BLAS_FUNCS(LT_NAME)
	"run (transfer kind)",
	"program",
};
#undef LT_NAME

const char *lt_op_name(int op) {
	if (op < 0 || op >= LT_OP_COUNT) {
		return "";
	}
	return lt_op_names[op];
}

static void lt_msg(char *msg, size_t len, const char *a, const char *b) {
	snprintf(msg, len, "%s%s", a, b ? b : "");
}

// LT_RESOLVE looks up one required function of library handle h into
// table t; a missing one names itself in msg, closes h and returns 2
// from the enclosing loader.
#define LT_RESOLVE(name, params)                     \
	*(void **)(&t.name) = dlsym(h, #name);           \
	if (t.name == NULL) {                            \
		lt_msg(msg, msglen, #name, NULL);            \
		dlclose(h);                                  \
		return 2;                                    \
	}

// lt_load_driver dlopens libcuda.so.1, resolves every function and calls
// cuInit(0). It returns 0 on success; 1 when the library cannot be
// opened (msg holds dlerror), 2 when a function is missing (msg names
// it), 3 when cuInit failed (st holds its result). Called once, under
// the Go side's sync.Once.
int lt_load_driver(char *msg, size_t msglen, lt_status *st) {
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		lt_msg(msg, msglen, "", dlerror());
		return 1;
	}
	lt_cu_table t;
	memset(&t, 0, sizeof t);
	LT_CU_FUNCS(LT_RESOLVE)
#define LT_RESOLVE_OPT(name, params) *(void **)(&t.name) = dlsym(h, #name);
	LT_CU_OPTIONAL(LT_RESOLVE_OPT)
#undef LT_RESOLVE_OPT
	lt_CUresult r = t.cuInit(0);
	if (r != LT_CUDA_SUCCESS) {
		lt_cu = t; // keep cuGetErrorName usable for the message
		lt_cuda_handle = h;
		*st = lt_fail(r, LT_OP_cuInit);
		return 3;
	}
	lt_cu = t;
	lt_cuda_handle = h;
	return 0;
}

static const char *const lt_blas_dirs[] = {
	"",
	"/usr/local/cuda/lib64/",
	"/usr/local/cuda/targets/x86_64-linux/lib/",
	"/usr/lib/x86_64-linux-gnu/",
};
static const char *const lt_blas_names[] = {"libcublas.so.13", "libcublas.so.12"};

// lt_load_blas dlopens cuBLAS: override when not NULL, else
// libcublas.so.13 then libcublas.so.12, each by the default search path
// and then in the usual CUDA directories. It returns 0 on success, 1
// when no library opened (msg: the last dlerror), 2 when a function is
// missing (msg names it).
int lt_load_blas(const char *override, char *msg, size_t msglen) {
	void *h = NULL;
	char path[512];
	if (override != NULL) {
		h = dlopen(override, RTLD_NOW | RTLD_LOCAL);
		if (h == NULL) {
			lt_msg(msg, msglen, "", dlerror());
			return 1;
		}
	}
	for (size_t i = 0; h == NULL && i < sizeof lt_blas_names / sizeof lt_blas_names[0]; i++) {
		for (size_t j = 0; h == NULL && j < sizeof lt_blas_dirs / sizeof lt_blas_dirs[0]; j++) {
			snprintf(path, sizeof path, "%s%s", lt_blas_dirs[j], lt_blas_names[i]);
			h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
			if (h == NULL) {
				lt_msg(msg, msglen, "", dlerror());
			}
		}
	}
	if (h == NULL) {
		return 1;
	}
	lt_blas_table t;
	memset(&t, 0, sizeof t);
	LT_BLAS_FUNCS(LT_RESOLVE)
	*(void **)(&t.cublasGetStatusName) = dlsym(h, "cublasGetStatusName");
	lt_blas = t;
	lt_blas_handle = h;
	return 0;
}

const char *lt_cu_error_name(int code) {
	const char *s = NULL;
	if (lt_cu.cuGetErrorName == NULL || lt_cu.cuGetErrorName(code, &s) != LT_CUDA_SUCCESS) {
		return NULL;
	}
	return s;
}

const char *lt_blas_status_name(int code) {
	if (lt_blas.cublasGetStatusName == NULL) {
		return NULL;
	}
	return lt_blas.cublasGetStatusName(code);
}
