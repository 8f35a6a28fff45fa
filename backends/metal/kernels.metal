// lintel's Metal kernels. Every kernel takes its arguments struct at
// buffer(0) and its tensors at buffer(1) onward, in the order the Go
// planner binds them (see backends/internal/gpu/kernels.go, which mirrors
// every struct here field by field; a test checks that they agree). One-dimensional kernels
// run one thread per output element and return when gid is past the end.
#include <metal_stdlib>
using namespace metal;

#define MAX_RANK 6
#define MAX_BATCH_RANK 4

// Unary op codes (Go: unaryOp).
#define U_COPY 0
#define U_RELU 1
#define U_SIGMOID 2
#define U_TANH 3
#define U_EXP 4
#define U_LOG 5
#define U_SQRT 6
#define U_NEG 7
#define U_ABS 8
#define U_ERF 9
#define U_GELU 10
#define U_GELU_TANH 11
#define U_LEAKY 12
#define U_CLIP 13
#define U_HARD_SIGMOID 14
#define U_HARD_SWISH 15
#define U_RECIPROCAL 16

// Binary op codes (Go: binaryOp).
#define B_ADD 0
#define B_SUB 1
#define B_MUL 2
#define B_DIV 3
#define B_POW 4
#define B_MIN 5
#define B_MAX 6
#define B_EQUAL 7
#define B_LESS 8
#define B_GREATER 9
#define B_LESS_EQ 10
#define B_GREATER_EQ 11

// Reduce op codes (Go: reduceOp).
#define R_SUM 0
#define R_MEAN 1
#define R_MAX 2
#define R_MIN 3

// Element type codes for cast (Go: castType).
#define T_F32 0
#define T_I32 1
#define T_I64 2
#define T_BOOL 3

// Pad modes (Go: PConstant...).
#define P_CONSTANT 0
#define P_REFLECT 1
#define P_EDGE 2
#define P_WRAP 3

struct UnaryArgs {
    uint n;
    uint op;
    float alpha;
    float beta;
};

struct BinaryArgs {
    uint n;
    uint op;
    uint rank;
    uint pad0;
    int shape[MAX_RANK];
    int sa[MAX_RANK];
    int sb[MAX_RANK];
};

struct WhereArgs {
    uint n;
    uint rank;
    uint pad0;
    uint pad1;
    int shape[MAX_RANK];
    int sc[MAX_RANK];
    int sa[MAX_RANK];
    int sb[MAX_RANK];
};

struct CopyArgs {
    uint n;
    uint rank;
    int in_off;
    int out_off;
    int shape[MAX_RANK];
    int sin[MAX_RANK];
    int sout[MAX_RANK];
};

struct CastArgs {
    uint n;
    uint from;
    uint to;
    uint pad0;
};

struct GemmArgs {
    uint m;
    uint n;
    uint k;
    uint batch;
    uint brank;
    int sam;
    int sak;
    int sbk;
    int sbn;
    int scm;
    int scn;
    uint has_c;
    float alpha;
    float beta;
    uint ab_type; // element type of A and B: always T_F32 here (Metal ignores half weights)
    uint pad1;
    int bshape[MAX_BATCH_RANK];
    int bsa[MAX_BATCH_RANK];
    int bsb[MAX_BATCH_RANK];
};

struct SoftmaxArgs {
    uint outer;
    uint axis;
    uint inner;
    uint use_log;
};

struct LayerNormArgs {
    uint rows;
    uint cols;
    float eps;
    uint has_bias;
};

struct ReduceArgs {
    uint n;
    uint op;
    uint rank;
    uint nred;
    int oshape[MAX_RANK];
    int ostride[MAX_RANK];
    int rshape[MAX_RANK];
    int rstride[MAX_RANK];
};

struct ArgMaxArgs {
    uint outer;
    uint axis;
    uint inner;
    uint select_last;
};

struct GatherArgs {
    uint n;
    uint axis_len;
    uint inner;
    uint nidx;
    uint idx64;
    uint pad0;
    uint pad1;
    uint pad2;
};

struct ConvArgs {
    uint n;
    uint c;
    uint h;
    uint w;
    uint m;
    uint oh;
    uint ow;
    uint kh;
    uint kw;
    uint group;
    int sh;
    int sw;
    int ph;
    int pw;
    int dh;
    int dw;
    uint has_bias;
    uint pad0;
};

struct PoolArgs {
    uint n;
    uint h;
    uint w;
    uint oh;
    uint ow;
    uint kh;
    uint kw;
    int sh;
    int sw;
    int ph;
    int pw;
    int peh;
    int pew;
    int dh;
    int dw;
    uint is_max;
    uint include_pad;
    uint pad0;
};

struct BatchNormArgs {
    uint n;
    uint c;
    uint inner;
    float eps;
};

struct ResizeArgs {
    uint n;
    uint outer;
    uint nin;
    uint nout;
    uint inner;
    uint k;
    float extrap;
    uint pad0;
};

struct PadArgs {
    uint n;
    uint rank;
    uint mode;
    float value;
    int oshape[MAX_RANK];
    int ishape[MAX_RANK];
    int before[MAX_RANK];
};

// erf_approx is Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7);
// the Metal standard library has no erf.
static inline float erf_approx(float x) {
    float s = x < 0.0f ? -1.0f : 1.0f;
    float a = fabs(x);
    float t = 1.0f / (1.0f + 0.3275911f * a);
    float y = 1.0f - (((((1.061405429f * t - 1.453152027f) * t) + 1.421413741f) * t - 0.284496736f) * t + 0.254829592f) * t * exp(-a * a);
    return s * y;
}

kernel void unary_f32(constant UnaryArgs& a [[buffer(0)]],
                      device const float* x [[buffer(1)]],
                      device float* y [[buffer(2)]],
                      uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    float v = x[gid];
    float r = v;
    switch (a.op) {
    case U_RELU: r = v > 0.0f ? v : 0.0f; break;
    case U_SIGMOID: r = 1.0f / (1.0f + exp(-v)); break;
    case U_TANH: r = tanh(v); break;
    case U_EXP: r = exp(v); break;
    case U_LOG: r = log(v); break;
    case U_SQRT: r = sqrt(v); break;
    case U_NEG: r = -v; break;
    case U_ABS: r = fabs(v); break;
    case U_ERF: r = erf_approx(v); break;
    case U_GELU: r = 0.5f * v * (1.0f + erf_approx(v * 0.70710678f)); break;
    case U_GELU_TANH: r = 0.5f * v * (1.0f + tanh(0.7978845608f * (v + 0.044715f * v * v * v))); break;
    case U_LEAKY: r = v >= 0.0f ? v : a.alpha * v; break;
    case U_CLIP: r = min(max(v, a.alpha), a.beta); break;
    case U_HARD_SIGMOID: r = max(0.0f, min(1.0f, a.alpha * v + a.beta)); break;
    case U_HARD_SWISH: r = v * max(0.0f, min(1.0f, v / 6.0f + 0.5f)); break;
    case U_RECIPROCAL: r = 1.0f / v; break;
    default: break;
    }
    y[gid] = r;
}

kernel void not_u8(constant UnaryArgs& a [[buffer(0)]],
                   device const uchar* x [[buffer(1)]],
                   device uchar* y [[buffer(2)]],
                   uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    y[gid] = x[gid] != 0 ? 0 : 1;
}

// offsets returns the offsets into a and b of output element i.
static inline int2 offsets(uint i, uint rank, constant int* shape, constant int* sa, constant int* sb) {
    int oa = 0;
    int ob = 0;
    for (int d = int(rank) - 1; d >= 0; d--) {
        int c = int(i % uint(shape[d]));
        i /= uint(shape[d]);
        oa += c * sa[d];
        ob += c * sb[d];
    }
    return int2(oa, ob);
}

kernel void binary_f32(constant BinaryArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device const float* z [[buffer(2)]],
                       device float* y [[buffer(3)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    int2 o = offsets(gid, a.rank, a.shape, a.sa, a.sb);
    float u = x[o.x];
    float v = z[o.y];
    float r = 0.0f;
    switch (a.op) {
    case B_ADD: r = u + v; break;
    case B_SUB: r = u - v; break;
    case B_MUL: r = u * v; break;
    case B_DIV: r = u / v; break;
    case B_POW: r = pow(u, v); break;
    case B_MIN: r = min(u, v); break;
    case B_MAX: r = max(u, v); break;
    default: break;
    }
    y[gid] = r;
}

kernel void compare_f32(constant BinaryArgs& a [[buffer(0)]],
                        device const float* x [[buffer(1)]],
                        device const float* z [[buffer(2)]],
                        device uchar* y [[buffer(3)]],
                        uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    int2 o = offsets(gid, a.rank, a.shape, a.sa, a.sb);
    float u = x[o.x];
    float v = z[o.y];
    bool r = false;
    switch (a.op) {
    case B_EQUAL: r = u == v; break;
    case B_LESS: r = u < v; break;
    case B_GREATER: r = u > v; break;
    case B_LESS_EQ: r = u <= v; break;
    case B_GREATER_EQ: r = u >= v; break;
    default: break;
    }
    y[gid] = r ? 1 : 0;
}

kernel void where_f32(constant WhereArgs& a [[buffer(0)]],
                      device const uchar* c [[buffer(1)]],
                      device const float* x [[buffer(2)]],
                      device const float* z [[buffer(3)]],
                      device float* y [[buffer(4)]],
                      uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint i = gid;
    int oc = 0;
    int ox = 0;
    int oz = 0;
    for (int d = int(a.rank) - 1; d >= 0; d--) {
        int k = int(i % uint(a.shape[d]));
        i /= uint(a.shape[d]);
        oc += k * a.sc[d];
        ox += k * a.sa[d];
        oz += k * a.sb[d];
    }
    y[gid] = c[oc] != 0 ? x[ox] : z[oz];
}

// copy_offsets returns the input and output offsets of element i of a
// strided copy.
static inline int2 copy_offsets(constant CopyArgs& a, uint i) {
    int oi = a.in_off;
    int oo = a.out_off;
    for (int d = int(a.rank) - 1; d >= 0; d--) {
        int k = int(i % uint(a.shape[d]));
        i /= uint(a.shape[d]);
        oi += k * a.sin[d];
        oo += k * a.sout[d];
    }
    return int2(oi, oo);
}

kernel void copy_b32(constant CopyArgs& a [[buffer(0)]],
                     device const uint* x [[buffer(1)]],
                     device uint* y [[buffer(2)]],
                     uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    int2 o = copy_offsets(a, gid);
    y[o.y] = x[o.x];
}

kernel void copy_b64(constant CopyArgs& a [[buffer(0)]],
                     device const uint2* x [[buffer(1)]],
                     device uint2* y [[buffer(2)]],
                     uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    int2 o = copy_offsets(a, gid);
    y[o.y] = x[o.x];
}

kernel void copy_b8(constant CopyArgs& a [[buffer(0)]],
                    device const uchar* x [[buffer(1)]],
                    device uchar* y [[buffer(2)]],
                    uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    int2 o = copy_offsets(a, gid);
    y[o.y] = x[o.x];
}

// load_any reads element i of a buffer of type code t as a float.
static inline float load_any(device const uchar* p, uint t, uint i) {
    switch (t) {
    case T_I32: return float(((device const int*)p)[i]);
    case T_I64: {
        device const int* q = (device const int*)p;
        long v = long(uint(q[2 * i])) | (long(q[2 * i + 1]) << 32);
        return float(v);
    }
    case T_BOOL: return p[i] != 0 ? 1.0f : 0.0f;
    default: return ((device const float*)p)[i];
    }
}

kernel void cast_any(constant CastArgs& a [[buffer(0)]],
                     device const uchar* x [[buffer(1)]],
                     device uchar* y [[buffer(2)]],
                     uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    float v = load_any(x, a.from, gid);
    switch (a.to) {
    case T_I32: ((device int*)y)[gid] = int(v); break;
    case T_I64: {
        long l = long(v);
        device int* q = (device int*)y;
        q[2 * gid] = int(l & 0xffffffff);
        q[2 * gid + 1] = int(l >> 32);
        break;
    }
    case T_BOOL: y[gid] = v != 0.0f ? 1 : 0; break;
    default: ((device float*)y)[gid] = v; break;
    }
}

#define TILE 16

// gemm_f32 computes y[b] = alpha * A[b] x B[b] (+ beta * C) for every batch
// b, 16x16 output tiles per threadgroup, staging tiles of A and B in
// threadgroup memory. y is contiguous [batch, m, n].
kernel void gemm_f32(constant GemmArgs& a [[buffer(0)]],
                     device const float* x [[buffer(1)]],
                     device const float* w [[buffer(2)]],
                     device const float* c [[buffer(3)]],
                     device float* y [[buffer(4)]],
                     uint3 tg [[threadgroup_position_in_grid]],
                     uint3 lid [[thread_position_in_threadgroup]]) {
    threadgroup float ta[TILE][TILE];
    threadgroup float tb[TILE][TILE];
    uint row = tg.y * TILE + lid.y;
    uint col = tg.x * TILE + lid.x;
    uint b = tg.z;
    int oa = 0;
    int ob = 0;
    uint i = b;
    for (int d = int(a.brank) - 1; d >= 0; d--) {
        int k = int(i % uint(a.bshape[d]));
        i /= uint(a.bshape[d]);
        oa += k * a.bsa[d];
        ob += k * a.bsb[d];
    }
    float acc = 0.0f;
    for (uint k0 = 0; k0 < a.k; k0 += TILE) {
        uint ka = k0 + lid.x;
        uint kb = k0 + lid.y;
        ta[lid.y][lid.x] = (row < a.m && ka < a.k) ? x[oa + int(row) * a.sam + int(ka) * a.sak] : 0.0f;
        tb[lid.y][lid.x] = (kb < a.k && col < a.n) ? w[ob + int(kb) * a.sbk + int(col) * a.sbn] : 0.0f;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint j = 0; j < TILE; j++) {
            acc = fma(ta[lid.y][j], tb[j][lid.x], acc);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (row >= a.m || col >= a.n || b >= a.batch) {
        return;
    }
    float r = a.alpha * acc;
    if (a.has_c != 0) {
        r += a.beta * c[int(row) * a.scm + int(col) * a.scn];
    }
    y[(b * a.m + row) * a.n + col] = r;
}

kernel void softmax_f32(constant SoftmaxArgs& a [[buffer(0)]],
                        device const float* x [[buffer(1)]],
                        device float* y [[buffer(2)]],
                        uint gid [[thread_position_in_grid]]) {
    if (gid >= a.outer * a.inner) {
        return;
    }
    uint o = gid / a.inner;
    uint ii = gid % a.inner;
    uint base = o * a.axis * a.inner + ii;
    float mx = -INFINITY;
    for (uint j = 0; j < a.axis; j++) {
        mx = max(mx, x[base + j * a.inner]);
    }
    float sum = 0.0f;
    for (uint j = 0; j < a.axis; j++) {
        sum += exp(x[base + j * a.inner] - mx);
    }
    if (a.use_log != 0) {
        float ls = log(sum);
        for (uint j = 0; j < a.axis; j++) {
            y[base + j * a.inner] = x[base + j * a.inner] - mx - ls;
        }
        return;
    }
    for (uint j = 0; j < a.axis; j++) {
        y[base + j * a.inner] = exp(x[base + j * a.inner] - mx) / sum;
    }
}

kernel void layernorm_f32(constant LayerNormArgs& a [[buffer(0)]],
                          device const float* x [[buffer(1)]],
                          device const float* s [[buffer(2)]],
                          device const float* bias [[buffer(3)]],
                          device float* y [[buffer(4)]],
                          uint gid [[thread_position_in_grid]]) {
    if (gid >= a.rows) {
        return;
    }
    uint base = gid * a.cols;
    float mean = 0.0f;
    for (uint j = 0; j < a.cols; j++) {
        mean += x[base + j];
    }
    mean /= float(a.cols);
    float var = 0.0f;
    for (uint j = 0; j < a.cols; j++) {
        float d = x[base + j] - mean;
        var += d * d;
    }
    var /= float(a.cols);
    float inv = 1.0f / sqrt(var + a.eps);
    for (uint j = 0; j < a.cols; j++) {
        float r = (x[base + j] - mean) * inv * s[j];
        if (a.has_bias != 0) {
            r += bias[j];
        }
        y[base + j] = r;
    }
}

kernel void reduce_f32(constant ReduceArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device float* y [[buffer(2)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint i = gid;
    int base = 0;
    for (int d = int(a.rank) - 1; d >= 0; d--) {
        int k = int(i % uint(a.oshape[d]));
        i /= uint(a.oshape[d]);
        base += k * a.ostride[d];
    }
    float acc = 0.0f;
    if (a.op == R_MAX) {
        acc = -INFINITY;
    } else if (a.op == R_MIN) {
        acc = INFINITY;
    }
    for (uint r = 0; r < a.nred; r++) {
        uint j = r;
        int off = base;
        for (int d = int(a.rank) - 1; d >= 0; d--) {
            int k = int(j % uint(a.rshape[d]));
            j /= uint(a.rshape[d]);
            off += k * a.rstride[d];
        }
        float v = x[off];
        switch (a.op) {
        case R_MAX: acc = max(acc, v); break;
        case R_MIN: acc = min(acc, v); break;
        default: acc += v; break;
        }
    }
    if (a.op == R_MEAN) {
        acc /= float(a.nred);
    }
    y[gid] = acc;
}

kernel void argmax_f32(constant ArgMaxArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device int* y [[buffer(2)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.outer * a.inner) {
        return;
    }
    uint o = gid / a.inner;
    uint ii = gid % a.inner;
    uint base = o * a.axis * a.inner + ii;
    float best = x[base];
    uint bi = 0;
    for (uint j = 1; j < a.axis; j++) {
        float v = x[base + j * a.inner];
        if (v > best || (a.select_last != 0 && v == best)) {
            best = v;
            bi = j;
        }
    }
    y[2 * gid] = int(bi);
    y[2 * gid + 1] = 0;
}

kernel void gather_f32(constant GatherArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device const int* idx [[buffer(2)]],
                       device float* y [[buffer(3)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint ii = gid % a.inner;
    uint t = gid / a.inner;
    uint j = t % a.nidx;
    uint o = t / a.nidx;
    long k = a.idx64 != 0 ? (long(uint(idx[2 * j])) | (long(idx[2 * j + 1]) << 32)) : long(idx[j]);
    if (k < 0) {
        k += long(a.axis_len);
    }
    if (k < 0 || k >= long(a.axis_len)) {
        y[gid] = 0.0f;
        return;
    }
    y[gid] = x[(o * a.axis_len + uint(k)) * a.inner + ii];
}

// conv2d_f32 is a direct convolution, one thread per output element of
// y[n, m, oh, ow]; weights are [m, c/group, kh, kw].
kernel void conv2d_f32(constant ConvArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device const float* w [[buffer(2)]],
                       device const float* bias [[buffer(3)]],
                       device float* y [[buffer(4)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint ox = gid % a.ow;
    uint t = gid / a.ow;
    uint oy = t % a.oh;
    t /= a.oh;
    uint m = t % a.m;
    uint b = t / a.m;
    uint cg = a.c / a.group;
    uint mg = a.m / a.group;
    uint c0 = (m / mg) * cg;
    float acc = a.has_bias != 0 ? bias[m] : 0.0f;
    int y0 = int(oy) * a.sh - a.ph;
    int x0 = int(ox) * a.sw - a.pw;
    for (uint ci = 0; ci < cg; ci++) {
        device const float* xp = x + ((b * a.c + c0 + ci) * a.h) * a.w;
        device const float* wp = w + ((m * cg + ci) * a.kh) * a.kw;
        for (uint ky = 0; ky < a.kh; ky++) {
            int iy = y0 + int(ky) * a.dh;
            if (iy < 0 || iy >= int(a.h)) {
                continue;
            }
            for (uint kx = 0; kx < a.kw; kx++) {
                int ix = x0 + int(kx) * a.dw;
                if (ix < 0 || ix >= int(a.w)) {
                    continue;
                }
                acc = fma(xp[iy * int(a.w) + ix], wp[ky * a.kw + kx], acc);
            }
        }
    }
    y[gid] = acc;
}

// pad_count is how many of k taps from start, d apart, fall below limit.
static inline int pad_count(int start, int k, int d, int limit) {
    if (limit <= start) {
        return 0;
    }
    return min(k, (limit - start + d - 1) / d);
}

kernel void pool2d_f32(constant PoolArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device float* y [[buffer(2)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint ox = gid % a.ow;
    uint t = gid / a.ow;
    uint oy = t % a.oh;
    uint p = t / a.oh;
    device const float* xp = x + p * a.h * a.w;
    int y0 = int(oy) * a.sh - a.ph;
    int x0 = int(ox) * a.sw - a.pw;
    float best = -FLT_MAX;
    float sum = 0.0f;
    int cnt = 0;
    for (uint ky = 0; ky < a.kh; ky++) {
        int iy = y0 + int(ky) * a.dh;
        if (iy < 0 || iy >= int(a.h)) {
            continue;
        }
        for (uint kx = 0; kx < a.kw; kx++) {
            int ix = x0 + int(kx) * a.dw;
            if (ix < 0 || ix >= int(a.w)) {
                continue;
            }
            float v = xp[iy * int(a.w) + ix];
            best = max(best, v);
            sum += v;
            cnt++;
        }
    }
    if (a.is_max != 0) {
        y[gid] = best;
        return;
    }
    if (a.include_pad != 0) {
        cnt = pad_count(y0, int(a.kh), a.dh, int(a.h) + a.peh) * pad_count(x0, int(a.kw), a.dw, int(a.w) + a.pew);
    }
    y[gid] = cnt > 0 ? sum / float(cnt) : 0.0f;
}

kernel void batchnorm_f32(constant BatchNormArgs& a [[buffer(0)]],
                          device const float* x [[buffer(1)]],
                          device const float* s [[buffer(2)]],
                          device const float* bias [[buffer(3)]],
                          device const float* mean [[buffer(4)]],
                          device const float* var [[buffer(5)]],
                          device float* y [[buffer(6)]],
                          uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint c = (gid / a.inner) % a.c;
    y[gid] = (x[gid] - mean[c]) / sqrt(var[c] + a.eps) * s[c] + bias[c];
}

// im2col_f32 writes the column matrix of a convolution, one thread per
// element of col[n][g][k][p]: row k = c*kh*kw + ky*kw + kx of group g's
// channels, column p = oy*ow + ox; zero where the tap falls in the
// padding. a.n is the element count of col.
kernel void im2col_f32(constant ConvArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device float* col [[buffer(2)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint p = gid % (a.oh * a.ow);
    uint t = gid / (a.oh * a.ow);
    uint cg = a.c / a.group;
    uint kk = cg * a.kh * a.kw;
    uint k = t % kk;
    t /= kk;
    uint g = t % a.group;
    uint b = t / a.group;
    uint kx = k % a.kw;
    uint ky = (k / a.kw) % a.kh;
    uint c = g * cg + k / (a.kw * a.kh);
    int iy = int(p / a.ow) * a.sh - a.ph + int(ky) * a.dh;
    int ix = int(p % a.ow) * a.sw - a.pw + int(kx) * a.dw;
    float v = 0.0f;
    if (iy >= 0 && iy < int(a.h) && ix >= 0 && ix < int(a.w)) {
        v = x[((b * a.c + c) * a.h + uint(iy)) * a.w + uint(ix)];
    }
    col[gid] = v;
}

// resize_f32 is one pass of a separable resize along one axis, one thread
// per element of y[outer, nout, inner]: output index j sums its k taps
// w[j*k+q] * x[idx[j*k+q]] in order; idx[j*k] < 0 extrapolates.
kernel void resize_f32(constant ResizeArgs& a [[buffer(0)]],
                       device const float* x [[buffer(1)]],
                       device const int* idx [[buffer(2)]],
                       device const float* w [[buffer(3)]],
                       device float* y [[buffer(4)]],
                       uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint ii = gid % a.inner;
    uint t = gid / a.inner;
    uint j = t % a.nout;
    uint o = t / a.nout;
    device const int* ti = idx + j * a.k;
    device const float* tw = w + j * a.k;
    if (ti[0] < 0) {
        y[gid] = a.extrap;
        return;
    }
    device const float* s = x + o * a.nin * a.inner + ii;
    float sum = tw[0] * s[uint(ti[0]) * a.inner];
    for (uint q = 1; q < a.k; q++) {
        if (tw[q] != 0.0f) {
            sum += tw[q] * s[uint(ti[q]) * a.inner];
        }
    }
    y[gid] = sum;
}

// pad_f32 pads (or crops, where before is negative) x into y, one thread
// per element of y: constant fills with a.value, reflect mirrors without
// repeating the edge, edge repeats it, wrap repeats x periodically.
kernel void pad_f32(constant PadArgs& a [[buffer(0)]],
                    device const float* x [[buffer(1)]],
                    device float* y [[buffer(2)]],
                    uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint i = gid;
    int off = 0;
    int stride = 1;
    for (int d = int(a.rank) - 1; d >= 0; d--) {
        int c = int(i % uint(a.oshape[d]));
        i /= uint(a.oshape[d]);
        int n = a.ishape[d];
        int s = c - a.before[d];
        if (s < 0 || s >= n) {
            if (a.mode == P_CONSTANT) {
                y[gid] = a.value;
                return;
            }
            if (a.mode == P_WRAP) {
                s = ((s % n) + n) % n;
            } else if (a.mode == P_EDGE || n == 1) {
                s = s < 0 ? 0 : n - 1;
            } else {
                while (s < 0 || s >= n) {
                    s = s < 0 ? -s : 2 * (n - 1) - s;
                }
            }
        }
        off += s * stride;
        stride *= n;
    }
    y[gid] = x[off];
}

// convtranspose2d_f32 is a transposed convolution gathered per output
// element of y[n, m, oy, ox]: every tap whose input position is a whole
// stride step inside x adds x * w; weights are [c, m/group, kh, kw].
kernel void convtranspose2d_f32(constant ConvArgs& a [[buffer(0)]],
                                device const float* x [[buffer(1)]],
                                device const float* w [[buffer(2)]],
                                device const float* bias [[buffer(3)]],
                                device float* y [[buffer(4)]],
                                uint gid [[thread_position_in_grid]]) {
    if (gid >= a.n) {
        return;
    }
    uint ox = gid % a.ow;
    uint t = gid / a.ow;
    uint oy = t % a.oh;
    t /= a.oh;
    uint m = t % a.m;
    uint b = t / a.m;
    uint cg = a.c / a.group;
    uint mg = a.m / a.group;
    uint g = m / mg;
    uint mi = m % mg;
    float acc = a.has_bias != 0 ? bias[m] : 0.0f;
    for (uint ci = 0; ci < cg; ci++) {
        uint c = g * cg + ci;
        device const float* xp = x + (b * a.c + c) * a.h * a.w;
        device const float* wp = w + ((c * mg + mi) * a.kh) * a.kw;
        for (uint ky = 0; ky < a.kh; ky++) {
            int ty = int(oy) + a.ph - int(ky) * a.dh;
            if (ty < 0 || ty % a.sh != 0 || ty / a.sh >= int(a.h)) {
                continue;
            }
            int iy = ty / a.sh;
            for (uint kx = 0; kx < a.kw; kx++) {
                int tx = int(ox) + a.pw - int(kx) * a.dw;
                if (tx < 0 || tx % a.sw != 0 || tx / a.sw >= int(a.w)) {
                    continue;
                }
                acc = fma(xp[iy * int(a.w) + tx / a.sw], wp[ky * a.kw + kx], acc);
            }
        }
    }
    y[gid] = acc;
}
