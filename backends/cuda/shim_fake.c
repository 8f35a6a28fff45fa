//go:build cuda && cgo

// A stand-in driver and cuBLAS for tests on machines without a GPU: every
// function succeeds without doing anything, except the one named by
// lt_fake_fail, which returns the given code. It lets the Go side's
// recording, run, error and fault paths run where libcuda does not.
#include "shim_lib.h"

static int lt_fake_op;
static int lt_fake_code;

static int lt_fake_result(int op) {
	return op == lt_fake_op ? lt_fake_code : 0;
}

#define LT_FAKE_CU(name, params) \
	static lt_CUresult lt_fake_##name params { return lt_fake_result(LT_OP_##name); }
#define LT_FAKE_BLAS(name, params) \
	static int lt_fake_##name params { return lt_fake_result(LT_OP_##name); }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
LT_CU_FUNCS(LT_FAKE_CU)
LT_CU_OPTIONAL(LT_FAKE_CU)
LT_BLAS_FUNCS(LT_FAKE_BLAS)
#pragma GCC diagnostic pop
#undef LT_FAKE_CU
#undef LT_FAKE_BLAS

// Capture hands out dummy graph handles, so programs over the stand-in
// replay through cuGraphLaunch as they would on a GPU.
static lt_CUresult lt_fake_end_capture(lt_CUstream s, lt_CUgraph *g) {
	(void)s;
	*g = (lt_CUgraph)(uintptr_t)0x6a;
	return lt_fake_result(LT_OP_cuStreamEndCapture);
}

static lt_CUresult lt_fake_instantiate(lt_CUgraphExec *e, lt_CUgraph g, unsigned long long flags) {
	(void)g;
	(void)flags;
	int r = lt_fake_result(LT_OP_cuGraphInstantiateWithFlags);
	if (r == 0) {
		*e = (lt_CUgraphExec)(uintptr_t)0x6b;
	}
	return r;
}

// lt_fake_install points the function tables at the stand-ins. The Go
// side calls it only when the real driver could not be loaded.
void lt_fake_install(void) {
#define LT_SET_FAKE(name, params) lt_cu.name = lt_fake_##name;
	LT_CU_FUNCS(LT_SET_FAKE)
	LT_CU_OPTIONAL(LT_SET_FAKE)
#undef LT_SET_FAKE
	lt_cu.cuStreamEndCapture = lt_fake_end_capture;
	lt_cu.cuGraphInstantiateWithFlags = lt_fake_instantiate;
#define LT_SET_FAKE(name, params) lt_blas.name = lt_fake_##name;
	LT_BLAS_FUNCS(LT_SET_FAKE)
#undef LT_SET_FAKE
	lt_blas.cublasGetStatusName = NULL;
	lt_fake_op = 0;
	lt_fake_code = 0;
}

// lt_fake_fail makes operation op fail with code from now on (op 0: none).
void lt_fake_fail(int op, int code) {
	lt_fake_op = op;
	lt_fake_code = code;
}
