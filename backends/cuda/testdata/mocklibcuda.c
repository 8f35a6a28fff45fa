//go:build cuda && cgo

// A host-memory stand-in for libcuda.so.1, built by TestMockDriver into a
// temporary directory so the GPU tests run through the real dlopen path
// on machines without a GPU. Device memory is host memory; the only
// kernel is add_one (y[i] = x[i] + 1, see driver_launch_test.go); stream
// work runs at once, except under stream capture, where it is recorded
// and replayed by cuGraphLaunch. It is not part of any build.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long dptr;

enum { OP_LAUNCH, OP_COPY, OP_ZERO };
typedef struct {
	int kind;
	dptr dst, src;
	size_t n;
	unsigned char params[64];
	size_t nparams;
	unsigned threads;
} op;
typedef struct {
	op *ops;
	int n;
} graph;

static graph *capturing;

static void record(op o) {
	capturing->ops = realloc(capturing->ops, (size_t)(capturing->n + 1) * sizeof(op));
	capturing->ops[capturing->n++] = o;
}

static void run_op(const op *o) {
	switch (o->kind) {
	case OP_LAUNCH: {
		float *x, *y;
		uint32_t n;
		memcpy(&x, o->params, 8);
		memcpy(&y, o->params + 8, 8);
		memcpy(&n, o->params + 16, 4);
		for (uint32_t i = 0; i < n && i < o->threads; i++) {
			y[i] = x[i] + 1;
		}
		break;
	}
	case OP_COPY:
		memmove((void *)(uintptr_t)o->dst, (void *)(uintptr_t)o->src, o->n);
		break;
	case OP_ZERO:
		memset((void *)(uintptr_t)o->dst, 0, o->n);
		break;
	}
}

static int submit(op o) {
	if (capturing != NULL) {
		record(o);
	} else {
		run_op(&o);
	}
	return 0;
}

// LINTEL_MOCK_CUINIT=<code> makes cuInit fail with that code.
int cuInit(unsigned f) {
	const char *e = getenv("LINTEL_MOCK_CUINIT");
	if (e != NULL && *e != 0) return atoi(e);
	return f == 0 ? 0 : 1;
}
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int ord) { if (ord != 0) return 101; *d = 0; return 0; }
int cuDeviceGetName(char *name, int len, int d) { (void)d; strncpy(name, "host-memory stand-in", (size_t)len); return 0; }
int cuDeviceGetAttribute(int *v, int attr, int d) {
	(void)d;
	if (attr == 75) { *v = 9; return 0; }
	if (attr == 76) { *v = 0; return 0; }
	return 1;
}
int cuDeviceTotalMem_v2(size_t *b, int d) { (void)d; *b = (size_t)1 << 30; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)0x10; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return 0; }
int cuCtxSetCurrent(void *c) { return c == (void *)0x10 ? 0 : 201; }
int cuGetErrorName(int code, const char **s) {
	switch (code) {
	case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
	case 100: *s = "CUDA_ERROR_NO_DEVICE"; return 0;
	case 218: *s = "CUDA_ERROR_INVALID_PTX"; return 0;
	case 500: *s = "CUDA_ERROR_NOT_FOUND"; return 0;
	}
	return 1;
}
int cuMemAlloc_v2(dptr *p, size_t n) {
	if (n > ((size_t)1 << 32)) return 2;
	void *m = malloc(n);
	if (m == NULL) return 2;
	*p = (dptr)(uintptr_t)m;
	return 0;
}
int cuMemFree_v2(dptr p) { free((void *)(uintptr_t)p); return 0; }
int cuMemHostAlloc(void **p, size_t n, unsigned f) { (void)f; *p = malloc(n); return *p ? 0 : 2; }
int cuMemFreeHost(void *p) { free(p); return 0; }
int cuMemcpyHtoD_v2(dptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
int cuMemcpyDtoH_v2(void *d, dptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
int cuMemcpyHtoDAsync_v2(dptr d, const void *s, size_t n, void *st) { (void)st; return cuMemcpyHtoD_v2(d, s, n); }
int cuMemcpyDtoHAsync_v2(void *d, dptr s, size_t n, void *st) { (void)st; return cuMemcpyDtoH_v2(d, s, n); }
int cuMemcpyDtoDAsync_v2(dptr d, dptr s, size_t n, void *st) {
	(void)st;
	op o = {.kind = OP_COPY, .dst = d, .src = s, .n = n};
	return submit(o);
}
int cuMemsetD8Async(dptr d, unsigned char v, size_t n, void *st) {
	(void)st;
	if (v != 0) return 1;
	op o = {.kind = OP_ZERO, .dst = d, .n = n};
	return submit(o);
}
int cuMemsetD8_v2(dptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return 0; }
int cuModuleLoadDataEx(void **m, const void *image, unsigned nopt, int *opts, void **vals) {
	const char *ptx = image;
	if (strstr(ptx, ".visible .entry add_one(") != NULL && strstr(ptx, "%undeclared") == NULL) {
		*m = (void *)0x20;
		return 0;
	}
	char *log = NULL;
	size_t len = 0;
	for (unsigned i = 0; i < nopt; i++) {
		if (opts[i] == 5) log = vals[i];
		if (opts[i] == 6) len = (size_t)(uintptr_t)vals[i];
	}
	if (log != NULL && len > 0) {
		strncpy(log, "stand-in JIT: not the add_one kernel", len - 1);
		log[len - 1] = 0;
	}
	return 218;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
	if (m != (void *)0x20 || strcmp(name, "add_one") != 0) return 500;
	*f = (void *)0x30;
	return 0;
}
int cuModuleUnload(void *m) { return m == (void *)0x20 ? 0 : 400; }
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
	unsigned bz, unsigned shmem, void *st, void **params, void **extra) {
	(void)st;
	(void)shmem;
	if (f != (void *)0x30 || params != NULL || extra == NULL) return 1;
	op o = {.kind = OP_LAUNCH, .threads = gx * gy * gz * bx * by * bz};
	void *buf = NULL;
	size_t *size = NULL;
	for (int i = 0; extra[i] != NULL; i += 2) {
		if (extra[i] == (void *)1) buf = extra[i + 1];
		else if (extra[i] == (void *)2) size = extra[i + 1];
		else return 1;
	}
	if (buf == NULL || size == NULL || *size != 20) return 1;
	memcpy(o.params, buf, *size);
	o.nparams = *size;
	return submit(o);
}
int cuStreamCreate(void **s, unsigned f) { *s = (void *)0x40; return f == 1 ? 0 : 1; }
int cuStreamDestroy_v2(void *s) { (void)s; return 0; }
int cuStreamSynchronize(void *s) { (void)s; return capturing != NULL ? 900 : 0; }
int cuStreamBeginCapture_v2(void *s, int mode) {
	(void)s;
	if (capturing != NULL || mode != 1) return 1;
	capturing = calloc(1, sizeof(graph));
	return 0;
}
int cuStreamEndCapture(void *s, void **g) {
	(void)s;
	if (capturing == NULL) return 1;
	*g = capturing;
	capturing = NULL;
	return 0;
}
int cuGraphInstantiateWithFlags(void **e, void *g, unsigned long long flags) {
	if (flags != 0) return 1;
	graph *src = g, *dst = calloc(1, sizeof(graph));
	dst->ops = malloc((size_t)src->n * sizeof(op) + 1);
	memcpy(dst->ops, src->ops, (size_t)src->n * sizeof(op));
	dst->n = src->n;
	*e = dst;
	return 0;
}
int cuGraphLaunch(void *e, void *s) {
	(void)s;
	graph *g = e;
	for (int i = 0; i < g->n; i++) run_op(&g->ops[i]);
	return 0;
}
static int graph_free(void *p) { graph *g = p; free(g->ops); free(g); return 0; }
int cuGraphExecDestroy(void *e) { return graph_free(e); }
int cuGraphDestroy(void *g) { return graph_free(g); }
