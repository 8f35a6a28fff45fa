//go:build cuda && cgo

#include <stdlib.h>
#include <string.h>

#include "shim_lib.h"

enum { LT_LAUNCH = 1, LT_GEMM, LT_COPY, LT_ZERO };

typedef struct {
	int kind;
	// LT_LAUNCH
	lt_CUfunction fn;
	uint32_t grid[3], block[3], shmem;
	void *params;
	size_t nparams;
	// LT_GEMM
	lt_gemm gemm;
	// LT_COPY, LT_ZERO
	uint64_t dst, src;
	size_t n;
} lt_op;

struct lt_prog {
	lt_op *ops;
	int n, cap;
	lt_CUstream stream;
	void *blas;
	lt_CUgraph graph;
	lt_CUgraphExec exec;
};

lt_prog *lt_prog_new(uintptr_t stream, uintptr_t blas) {
	lt_prog *p = calloc(1, sizeof *p);
	if (p == NULL) {
		return NULL;
	}
	p->stream = (lt_CUstream)stream;
	p->blas = (void *)blas;
	return p;
}

// lt_prog_add appends a zeroed op, or returns NULL when out of memory.
static lt_op *lt_prog_add(lt_prog *p, int kind) {
	if (p->n == p->cap) {
		int cap = p->cap == 0 ? 16 : 2 * p->cap;
		lt_op *ops = realloc(p->ops, (size_t)cap * sizeof *ops);
		if (ops == NULL) {
			return NULL;
		}
		p->ops = ops;
		p->cap = cap;
	}
	lt_op *op = &p->ops[p->n++];
	memset(op, 0, sizeof *op);
	op->kind = kind;
	return op;
}

int lt_prog_launch(lt_prog *p, uintptr_t fn, const uint32_t *grid, const uint32_t *block,
	uint32_t shmem, const void *params, size_t nparams) {
	// malloc's alignment covers any kernel parameter's.
	void *buf = malloc(nparams > 0 ? nparams : 1);
	if (buf == NULL) {
		return -1;
	}
	lt_op *op = lt_prog_add(p, LT_LAUNCH);
	if (op == NULL) {
		free(buf);
		return -1;
	}
	if (nparams > 0) {
		memcpy(buf, params, nparams);
	}
	op->fn = (lt_CUfunction)fn;
	memcpy(op->grid, grid, sizeof op->grid);
	memcpy(op->block, block, sizeof op->block);
	op->shmem = shmem;
	op->params = buf;
	op->nparams = nparams;
	return 0;
}

int lt_prog_gemm(lt_prog *p, const lt_gemm *g) {
	lt_op *op = lt_prog_add(p, LT_GEMM);
	if (op == NULL) {
		return -1;
	}
	op->gemm = *g;
	return 0;
}

int lt_prog_copy(lt_prog *p, uint64_t dst, uint64_t src, size_t n) {
	lt_op *op = lt_prog_add(p, LT_COPY);
	if (op == NULL) {
		return -1;
	}
	op->dst = dst;
	op->src = src;
	op->n = n;
	return 0;
}

int lt_prog_zero(lt_prog *p, uint64_t dst, size_t n) {
	lt_op *op = lt_prog_add(p, LT_ZERO);
	if (op == NULL) {
		return -1;
	}
	op->dst = dst;
	op->n = n;
	return 0;
}

int lt_prog_len(const lt_prog *p) { return p->n; }

int lt_prog_captured(const lt_prog *p) { return p->exec != NULL; }

static lt_status lt_enqueue_gemm(lt_prog *p, const lt_gemm *g) {
	if (p->blas == NULL) {
		return lt_fail(LT_CUDA_ERROR_INVALID_VALUE, LT_OP_PROGRAM);
	}
	int ta = g->transa ? LT_CUBLAS_OP_T : LT_CUBLAS_OP_N;
	int tb = g->transb ? LT_CUBLAS_OP_T : LT_CUBLAS_OP_N;
	if (g->atype == LT_CUDA_R_32F && g->btype == LT_CUDA_R_32F) {
		if (g->batch > 1) {
			LT_BLAS(cublasSgemmStridedBatched, p->blas, ta, tb, g->m, g->n, g->k,
				&g->alpha, (const float *)(uintptr_t)g->a, g->lda, g->stridea,
				(const float *)(uintptr_t)g->b, g->ldb, g->strideb,
				&g->beta, (float *)(uintptr_t)g->c, g->ldc, g->stridec, g->batch);
		} else {
			LT_BLAS(cublasSgemm_v2, p->blas, ta, tb, g->m, g->n, g->k,
				&g->alpha, (const float *)(uintptr_t)g->a, g->lda,
				(const float *)(uintptr_t)g->b, g->ldb,
				&g->beta, (float *)(uintptr_t)g->c, g->ldc);
		}
		return LT_OK;
	}
	if (g->batch > 1) {
		LT_BLAS(cublasGemmStridedBatchedEx, p->blas, ta, tb, g->m, g->n, g->k,
			&g->alpha, (const void *)(uintptr_t)g->a, g->atype, g->lda, g->stridea,
			(const void *)(uintptr_t)g->b, g->btype, g->ldb, g->strideb,
			&g->beta, (void *)(uintptr_t)g->c, LT_CUDA_R_32F, g->ldc, g->stridec, g->batch,
			LT_CUBLAS_COMPUTE_32F, LT_CUBLAS_GEMM_DEFAULT);
	} else {
		LT_BLAS(cublasGemmEx, p->blas, ta, tb, g->m, g->n, g->k,
			&g->alpha, (const void *)(uintptr_t)g->a, g->atype, g->lda,
			(const void *)(uintptr_t)g->b, g->btype, g->ldb,
			&g->beta, (void *)(uintptr_t)g->c, LT_CUDA_R_32F, g->ldc,
			LT_CUBLAS_COMPUTE_32F, LT_CUBLAS_GEMM_DEFAULT);
	}
	return LT_OK;
}

// lt_enqueue puts every op of p on its stream, stopping at the first
// failure.
static lt_status lt_enqueue(lt_prog *p) {
	for (int i = 0; i < p->n; i++) {
		lt_op *op = &p->ops[i];
		switch (op->kind) {
		case LT_LAUNCH: {
			size_t size = op->nparams;
			void *extra[5] = {
				LT_CU_LAUNCH_PARAM_BUFFER_POINTER, op->params,
				LT_CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
				LT_CU_LAUNCH_PARAM_END,
			};
			LT_CU(cuLaunchKernel, op->fn, op->grid[0], op->grid[1], op->grid[2],
				op->block[0], op->block[1], op->block[2], op->shmem, p->stream,
				NULL, op->nparams > 0 ? extra : NULL);
			break;
		}
		case LT_GEMM: {
			lt_status st = lt_enqueue_gemm(p, &op->gemm);
			if (st.op != 0) {
				return st;
			}
			break;
		}
		case LT_COPY:
			LT_CU(cuMemcpyDtoDAsync_v2, op->dst, op->src, op->n, p->stream);
			break;
		case LT_ZERO:
			LT_CU(cuMemsetD8Async, op->dst, 0, op->n, p->stream);
			break;
		}
	}
	return LT_OK;
}

static void lt_prog_drop_graph(lt_prog *p) {
	if (p->exec != NULL) {
		lt_cu.cuGraphExecDestroy(p->exec);
		p->exec = NULL;
	}
	if (p->graph != NULL) {
		lt_cu.cuGraphDestroy(p->graph);
		p->graph = NULL;
	}
}

// lt_prog_capture runs p's ops once outside capture (so lazily loaded
// kernels are loaded and any error surfaces with a plain stream), then
// records them into a CUDA graph with thread-local stream capture and
// instantiates it. Begin, enqueue and end all happen in this one call,
// so on one OS thread.
lt_status lt_prog_capture(uintptr_t ctx, lt_prog *p) {
	LT_SET(ctx);
	lt_prog_drop_graph(p);
	lt_status st = lt_enqueue(p);
	lt_CUresult r = lt_cu.cuStreamSynchronize(p->stream);
	if (r != LT_CUDA_SUCCESS) {
		return lt_fail(r, LT_OP_cuStreamSynchronize); // as in lt_run
	}
	if (st.op != 0) {
		return st;
	}
	LT_CU(cuStreamBeginCapture_v2, p->stream, LT_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
	st = lt_enqueue(p);
	lt_CUgraph g = NULL;
	r = lt_cu.cuStreamEndCapture(p->stream, &g);
	if (st.op != 0 || r != LT_CUDA_SUCCESS) {
		if (g != NULL) {
			lt_cu.cuGraphDestroy(g);
		}
		return st.op != 0 ? st : lt_fail(r, LT_OP_cuStreamEndCapture);
	}
	lt_CUgraphExec e = NULL;
	r = lt_cu.cuGraphInstantiateWithFlags(&e, g, 0);
	if (r != LT_CUDA_SUCCESS) {
		lt_cu.cuGraphDestroy(g);
		return lt_fail(r, LT_OP_cuGraphInstantiateWithFlags);
	}
	p->graph = g;
	p->exec = e;
	return LT_OK;
}

void lt_prog_free(uintptr_t ctx, lt_prog *p) {
	if (p == NULL) {
		return;
	}
	if (p->exec != NULL || p->graph != NULL) {
		lt_cu.cuCtxSetCurrent((lt_CUcontext)ctx);
		lt_prog_drop_graph(p);
	}
	for (int i = 0; i < p->n; i++) {
		free(p->ops[i].params);
	}
	free(p->ops);
	free(p);
}

static lt_status lt_xfer_in(lt_CUstream s, const lt_xfer *x) {
	switch (x->kind) {
	case LT_XFER_H2D:
		LT_CU(cuMemcpyHtoDAsync_v2, x->dev, (const void *)x->host, x->n, s);
		return LT_OK;
	case LT_XFER_D2D:
		LT_CU(cuMemcpyDtoDAsync_v2, x->dev, (lt_CUdeviceptr)x->host, x->n, s);
		return LT_OK;
	}
	return lt_fail(LT_CUDA_ERROR_INVALID_VALUE, LT_OP_RUN_XFER);
}

static lt_status lt_xfer_out(lt_CUstream s, const lt_xfer *x) {
	switch (x->kind) {
	case LT_XFER_D2H:
		LT_CU(cuMemcpyDtoHAsync_v2, (void *)x->host, x->dev, x->n, s);
		return LT_OK;
	case LT_XFER_D2D:
		LT_CU(cuMemcpyDtoDAsync_v2, (lt_CUdeviceptr)x->host, x->dev, x->n, s);
		return LT_OK;
	}
	return lt_fail(LT_CUDA_ERROR_INVALID_VALUE, LT_OP_RUN_XFER);
}

// lt_run is one inference step: ins, the program (its graph when
// captured), outs, then a stream synchronize. The stream is synchronized
// even after a failed enqueue, so no copy is still in flight when the Go
// side returns; a failed synchronize (an asynchronous fault) takes
// precedence over the enqueue failure.
lt_status lt_run(uintptr_t ctx, lt_prog *p, const lt_xfer *ins, int nin,
	const lt_xfer *outs, int nout) {
	LT_SET(ctx);
	lt_status st = LT_OK;
	for (int i = 0; i < nin && st.op == 0; i++) {
		st = lt_xfer_in(p->stream, &ins[i]);
	}
	if (st.op == 0) {
		if (p->exec != NULL) {
			lt_CUresult r = lt_cu.cuGraphLaunch(p->exec, p->stream);
			if (r != LT_CUDA_SUCCESS) {
				st = lt_fail(r, LT_OP_cuGraphLaunch);
			}
		} else {
			st = lt_enqueue(p);
		}
	}
	for (int i = 0; i < nout && st.op == 0; i++) {
		st = lt_xfer_out(p->stream, &outs[i]);
	}
	lt_CUresult r = lt_cu.cuStreamSynchronize(p->stream);
	if (r != LT_CUDA_SUCCESS) {
		return lt_fail(r, LT_OP_cuStreamSynchronize);
	}
	return st;
}
