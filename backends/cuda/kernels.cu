// lintel's CUDA kernels: the kernels of backends/metal/kernels.metal, with
// the same names, semantics, arguments structs (byte for byte) and launch
// geometry, so that one plan drives both backends. A Metal threadgroup is
// a CUDA block, threads per threadgroup are blockDim, and gid is
// blockIdx.x * blockDim.x + threadIdx.x.
//
// Parameter convention: every kernel takes its tensors first, as pointers
// in the order the Metal kernel binds buffer(1) onward, then its arguments
// struct by value, last. In PTX that is one .u64 parameter per tensor and
// one .align 4 .b8 array for the struct, so the driver's packed parameter
// buffer is the 8-byte pointers followed by the struct's little-endian
// bytes, exactly what the Go planner packs.
//
// go generate compiles this file to kernels.ptx with clang (see gen.go);
// internal/hostsim compiles it again as host C++ and runs it on the CPU.
// The math below uses no libdevice: exp, log, tanh, erf and pow are
// computed in double precision from their series, so every float result
// is within about one ulp of the correctly rounded one.
#include "cudart_compat.h"

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

// Pad modes (Go: PConstant...).
#define P_CONSTANT 0
#define P_REFLECT 1
#define P_EDGE 2
#define P_WRAP 3

// Element type codes for cast (Go: castType).
#define T_F32 0
#define T_I32 1
#define T_I64 2
#define T_BOOL 3
// 16-bit storage formats (Go: TF16, TBF16): cast_any writes them rounded
// to nearest even and reads them exactly; gemm_f32 reads its A and B in
// them when ab_type says so.
#define T_F16 4
#define T_BF16 5

typedef unsigned int uint;
typedef unsigned char uchar;

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
    uint ab_type;
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

// The structs' sizes, which the Go mirrors must match.
static_assert(sizeof(UnaryArgs) == 16, "UnaryArgs");
static_assert(sizeof(BinaryArgs) == 88, "BinaryArgs");
static_assert(sizeof(WhereArgs) == 112, "WhereArgs");
static_assert(sizeof(CopyArgs) == 88, "CopyArgs");
static_assert(sizeof(CastArgs) == 16, "CastArgs");
static_assert(sizeof(GemmArgs) == 112, "GemmArgs");
static_assert(sizeof(SoftmaxArgs) == 16, "SoftmaxArgs");
static_assert(sizeof(LayerNormArgs) == 16, "LayerNormArgs");
static_assert(sizeof(ReduceArgs) == 112, "ReduceArgs");
static_assert(sizeof(ArgMaxArgs) == 16, "ArgMaxArgs");
static_assert(sizeof(GatherArgs) == 32, "GatherArgs");
static_assert(sizeof(ConvArgs) == 72, "ConvArgs");
static_assert(sizeof(PoolArgs) == 72, "PoolArgs");
static_assert(sizeof(BatchNormArgs) == 16, "BatchNormArgs");
static_assert(sizeof(ResizeArgs) == 32, "ResizeArgs");
static_assert(sizeof(PadArgs) == 88, "PadArgs");

// A pair of 32-bit words: 64-bit elements are moved and read as two
// words, so that they need only 4-byte alignment, as in the Metal kernels.
struct u32x2 {
    uint x;
    uint y;
};

// ---- Math without libdevice ------------------------------------------

#define LT_LOG2E 1.4426950408889634
// ln 2 split so that k * LT_LN2_HI is exact for |k| < 2^20 (fdlibm).
#define LT_LN2_HI 6.93147180369123816490e-01
#define LT_LN2_LO 1.90821492927058770002e-10
#define LT_SQRT2 1.4142135623730951
#define LT_2_SQRTPI 1.1283791670955126
#define LT_1_SQRTPI 0.5641895835477563

// lt_exp is e^x in double for |x| <= 709 (0 below, +inf above): x = k ln2
// + r with |r| <= ln2/2, e^r by its Taylor series to degree 12 (truncation
// below 2e-16), scaled by 2^k. NaN gives NaN.
LT_INLINE double lt_exp(double x) {
    if (x != x) {
        return x;
    }
    if (x > 709.0) {
        return lt_inf();
    }
    if (x < -709.0) {
        return 0.0;
    }
    double k = lt_rint(x * LT_LOG2E);
    double r = lt_fma(-k, LT_LN2_HI, x);
    r = lt_fma(-k, LT_LN2_LO, r);
    double p = 1.0 / 479001600.0;
    p = lt_fma(p, r, 1.0 / 39916800.0);
    p = lt_fma(p, r, 1.0 / 3628800.0);
    p = lt_fma(p, r, 1.0 / 362880.0);
    p = lt_fma(p, r, 1.0 / 40320.0);
    p = lt_fma(p, r, 1.0 / 5040.0);
    p = lt_fma(p, r, 1.0 / 720.0);
    p = lt_fma(p, r, 1.0 / 120.0);
    p = lt_fma(p, r, 1.0 / 24.0);
    p = lt_fma(p, r, 1.0 / 6.0);
    p = lt_fma(p, r, 0.5);
    p = lt_fma(p, r, 1.0);
    p = lt_fma(p, r, 1.0);
    long long ik = (long long)k;
    return p * lt_bits_double((unsigned long long)(ik + 1023) << 52);
}

// lt_log is ln x in double: x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m
// = 2 atanh(f) with f = (m-1)/(m+1), |f| < 0.172, by its series to f^21.
// Zero gives -inf, negatives and NaN give NaN, +inf gives +inf.
LT_INLINE double lt_log(double x) {
    if (x != x || x < 0.0) {
        return lt_nanf();
    }
    if (x == 0.0) {
        return -lt_inf();
    }
    if (x == lt_inf()) {
        return x;
    }
    double e = 0.0;
    unsigned long long u = lt_double_bits(x);
    if ((u >> 52) == 0) { // subnormal
        x *= 18014398509481984.0; // 2^54
        e = -54.0;
        u = lt_double_bits(x);
    }
    e += (double)((long long)(u >> 52) - 1023);
    double m = lt_bits_double((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    if (m > LT_SQRT2) {
        m *= 0.5;
        e += 1.0;
    }
    double f = (m - 1.0) / (m + 1.0);
    double s = f * f;
    double p = 1.0 / 21.0;
    p = lt_fma(p, s, 1.0 / 19.0);
    p = lt_fma(p, s, 1.0 / 17.0);
    p = lt_fma(p, s, 1.0 / 15.0);
    p = lt_fma(p, s, 1.0 / 13.0);
    p = lt_fma(p, s, 1.0 / 11.0);
    p = lt_fma(p, s, 1.0 / 9.0);
    p = lt_fma(p, s, 1.0 / 7.0);
    p = lt_fma(p, s, 1.0 / 5.0);
    p = lt_fma(p, s, 1.0 / 3.0);
    double lm = 2.0 * f + 2.0 * f * s * p;
    return lt_fma(e, LT_LN2_HI, lm + e * LT_LN2_LO);
}

// lt_tanh is tanh x in double: x(1 - x^2/3) for |x| < 1e-4 (error below
// 1e-17 relative), otherwise (e^2x - 1)/(e^2x + 1) on |x|, with the sign.
LT_INLINE double lt_tanh(double x) {
    double a = lt_fabs(x);
    if (a != a) {
        return x;
    }
    if (a < 1e-4) {
        return x * (1.0 - x * x * (1.0 / 3.0));
    }
    if (a > 20.0) {
        return x < 0.0 ? -1.0 : 1.0;
    }
    double t = lt_exp(2.0 * a);
    double r = (t - 1.0) / (t + 1.0);
    return x < 0.0 ? -r : r;
}

// lt_erfc_large is erfc(a) for a >= 2 by Laplace's continued fraction,
// e^-a^2/sqrt(pi) / (a + (1/2)/(a + (2/2)/(a + (3/2)/(a + ...)))), 50
// terms (relative error below 1e-15 for a >= 2).
LT_INLINE double lt_erfc_large(double a) {
    double k = a;
    for (int n = 50; n >= 1; n--) {
        k = a + (0.5 * (double)n) / k;
    }
    return lt_exp(-a * a) * LT_1_SQRTPI / k;
}

// lt_erf_series is erf(a) for 0 <= a < 2 by the series of positive terms
// 2/sqrt(pi) e^-a^2 sum_n (2a^2)^n a / (1*3*...*(2n+1)), summed until a
// term no longer changes the sum (at most about 31 terms).
LT_INLINE double lt_erf_series(double a) {
    double a2 = 2.0 * a * a;
    double term = a;
    double sum = a;
    for (int n = 0; n < 64; n++) {
        term *= a2 / (double)(2 * n + 3);
        sum += term;
        if (term < sum * 1e-17) {
            break;
        }
    }
    return LT_2_SQRTPI * lt_exp(-a * a) * sum;
}

// lt_erf is erf x in double.
LT_INLINE double lt_erf(double x) {
    double a = lt_fabs(x);
    if (a != a) {
        return x;
    }
    double r = a < 2.0 ? lt_erf_series(a) : 1.0 - lt_erfc_large(a);
    return x < 0.0 ? -r : r;
}

// lt_erfc is erfc x in double, accurate in relative terms for x > 0 too.
LT_INLINE double lt_erfc(double x) {
    if (x != x) {
        return x;
    }
    if (x >= 2.0) {
        return lt_erfc_large(x);
    }
    return 1.0 - lt_erf(x);
}

// lt_is_int says whether a float is an integer; lt_is_odd whether it is
// an odd one (every float of magnitude 2^24 or more is even).
LT_INLINE bool lt_is_int(float v) { return (double)v == lt_rint((double)v); }

LT_INLINE bool lt_is_odd(float v) {
    return lt_fabsf(v) < 16777216.0f && lt_is_int(v) && (((long long)v) & 1) != 0;
}

// lt_powf is C's powf: e^(v ln|u|) in double, with C's special cases
// (pow(u, 0) = pow(1, v) = 1, negative bases only to integer powers, the
// sign of zero kept for odd powers, pow(-inf, v) = pow(inf, v) for
// non-integer v).
LT_INLINE float lt_powf(float u, float v) {
    if (v == 0.0f || u == 1.0f) {
        return 1.0f;
    }
    if (u != u || v != v) {
        return u + v;
    }
    if (u == 0.0f) {
        if (v > 0.0f) {
            return lt_is_odd(v) ? u : 0.0f;
        }
        float inf = lt_inff();
        return lt_is_odd(v) ? (1.0f / u > 0.0f ? inf : -inf) : inf;
    }
    double au = lt_fabs((double)u);
    if (au == 1.0 && lt_fabsf(v) == lt_inff()) {
        return 1.0f;
    }
    bool neg = false;
    if (u < 0.0f) {
        if (!lt_is_int(v)) {
            // pow(-inf, v) is |u|^v for every non-integer v.
            if (u != -lt_inff()) {
                return lt_nanf();
            }
        } else {
            neg = lt_is_odd(v);
        }
    }
    double r = lt_exp((double)v * lt_log(au));
    return (float)(neg ? -r : r);
}

LT_INLINE float lt_expf(float x) { return (float)lt_exp((double)x); }
LT_INLINE float lt_logf(float x) { return (float)lt_log((double)x); }
LT_INLINE float lt_tanhf(float x) { return (float)lt_tanh((double)x); }
LT_INLINE float lt_erff(float x) { return (float)lt_erf((double)x); }

// lt_sigmoidf is 1/(1+e^-x), in double.
LT_INLINE float lt_sigmoidf(float x) { return (float)(1.0 / (1.0 + lt_exp(-(double)x))); }

// lt_geluf is x Phi(x) = x/2 erfc(-x/sqrt 2), in double, accurate in the
// negative tail too.
LT_INLINE float lt_geluf(float x) {
    double v = (double)x;
    return (float)(0.5 * v * lt_erfc(-v * (1.0 / LT_SQRT2)));
}

// lt_gelu_tanhf is GELU's tanh approximation, in double.
LT_INLINE float lt_gelu_tanhf(float x) {
    double v = (double)x;
    return (float)(0.5 * v * (1.0 + lt_tanh(0.7978845608028654 * (v + 0.044715 * v * v * v))));
}

// ---- Kernels ---------------------------------------------------------

// lt_gid is the one-dimensional global thread index.
LT_INLINE uint lt_gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

extern "C" __global__ void unary_f32(const float* x, float* y, const UnaryArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    float v = x[gid];
    float r = v;
    switch (a.op) {
    case U_RELU: r = v > 0.0f ? v : 0.0f; break;
    case U_SIGMOID: r = lt_sigmoidf(v); break;
    case U_TANH: r = lt_tanhf(v); break;
    case U_EXP: r = lt_expf(v); break;
    case U_LOG: r = lt_logf(v); break;
    case U_SQRT: r = lt_sqrtf(v); break;
    case U_NEG: r = -v; break;
    case U_ABS: r = lt_fabsf(v); break;
    case U_ERF: r = lt_erff(v); break;
    case U_GELU: r = lt_geluf(v); break;
    case U_GELU_TANH: r = lt_gelu_tanhf(v); break;
    case U_LEAKY: r = v >= 0.0f ? v : a.alpha * v; break;
    case U_CLIP: r = lt_fminf(lt_fmaxf(v, a.alpha), a.beta); break;
    case U_HARD_SIGMOID: r = lt_fmaxf(0.0f, lt_fminf(1.0f, a.alpha * v + a.beta)); break;
    case U_HARD_SWISH: r = v * lt_fmaxf(0.0f, lt_fminf(1.0f, v / 6.0f + 0.5f)); break;
    case U_RECIPROCAL: r = 1.0f / v; break;
    default: break;
    }
    y[gid] = r;
}

extern "C" __global__ void not_u8(const uchar* x, uchar* y, const UnaryArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    y[gid] = x[gid] != 0 ? 0 : 1;
}

// lt_offsets sets the offsets into a and b of output element i.
LT_INLINE void lt_offsets(uint i, uint rank, const int* shape, const int* sa, const int* sb, int* oa, int* ob) {
    int pa = 0;
    int pb = 0;
    for (int d = int(rank) - 1; d >= 0; d--) {
        int c = int(i % uint(shape[d]));
        i /= uint(shape[d]);
        pa += c * sa[d];
        pb += c * sb[d];
    }
    *oa = pa;
    *ob = pb;
}

extern "C" __global__ void binary_f32(const float* x, const float* z, float* y, const BinaryArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    int oa, ob;
    lt_offsets(gid, a.rank, a.shape, a.sa, a.sb, &oa, &ob);
    float u = x[oa];
    float v = z[ob];
    float r = 0.0f;
    switch (a.op) {
    case B_ADD: r = u + v; break;
    case B_SUB: r = u - v; break;
    case B_MUL: r = u * v; break;
    case B_DIV: r = u / v; break;
    case B_POW: r = lt_powf(u, v); break;
    case B_MIN: r = lt_fminf(u, v); break;
    case B_MAX: r = lt_fmaxf(u, v); break;
    default: break;
    }
    y[gid] = r;
}

extern "C" __global__ void compare_f32(const float* x, const float* z, uchar* y, const BinaryArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    int oa, ob;
    lt_offsets(gid, a.rank, a.shape, a.sa, a.sb, &oa, &ob);
    float u = x[oa];
    float v = z[ob];
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

extern "C" __global__ void where_f32(const uchar* c, const float* x, const float* z, float* y, const WhereArgs a) {
    uint gid = lt_gid();
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

// lt_copy_offsets sets the input and output offsets of element i of a
// strided copy.
LT_INLINE void lt_copy_offsets(const CopyArgs& a, uint i, int* oi, int* oo) {
    int pi = a.in_off;
    int po = a.out_off;
    for (int d = int(a.rank) - 1; d >= 0; d--) {
        int k = int(i % uint(a.shape[d]));
        i /= uint(a.shape[d]);
        pi += k * a.sin[d];
        po += k * a.sout[d];
    }
    *oi = pi;
    *oo = po;
}

extern "C" __global__ void copy_b32(const uint* x, uint* y, const CopyArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    int oi, oo;
    lt_copy_offsets(a, gid, &oi, &oo);
    y[oo] = x[oi];
}

extern "C" __global__ void copy_b64(const u32x2* x, u32x2* y, const CopyArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    int oi, oo;
    lt_copy_offsets(a, gid, &oi, &oo);
    y[oo] = x[oi];
}

extern "C" __global__ void copy_b8(const uchar* x, uchar* y, const CopyArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    int oi, oo;
    lt_copy_offsets(a, gid, &oi, &oo);
    y[oo] = x[oi];
}

// lt_load_any reads element i of a buffer of type code t as a float.
LT_INLINE float lt_load_any(const uchar* p, uint t, uint i) {
    switch (t) {
    case T_I32: return float(((const int*)p)[i]);
    case T_I64: {
        const int* q = (const int*)p;
        long long v = (long long)(uint(q[2 * i])) | ((long long)(q[2 * i + 1]) << 32);
        return float(v);
    }
    case T_BOOL: return p[i] != 0 ? 1.0f : 0.0f;
    case T_F16: return lt_h2f(((const unsigned short*)p)[i]);
    case T_BF16: return lt_bf2f(((const unsigned short*)p)[i]);
    default: return ((const float*)p)[i];
    }
}

// lt_f2i and lt_f2ll convert toward zero, saturating out-of-range values
// and giving 0 for NaN, as the GPU's cvt.rzi does, so that the host
// simulation agrees with it where C++ leaves the conversion undefined.
LT_INLINE int lt_f2i(float v) {
    if (v != v) {
        return 0;
    }
    if (v >= 2147483648.0f) {
        return 2147483647;
    }
    if (v < -2147483648.0f) {
        return -2147483647 - 1;
    }
    return int(v);
}

LT_INLINE long long lt_f2ll(float v) {
    if (v != v) {
        return 0;
    }
    if (v >= 9223372036854775808.0f) {
        return 9223372036854775807LL;
    }
    if (v < -9223372036854775808.0f) {
        return -9223372036854775807LL - 1;
    }
    return (long long)v;
}

extern "C" __global__ void cast_any(const uchar* x, uchar* y, const CastArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    float v = lt_load_any(x, a.from, gid);
    switch (a.to) {
    case T_I32: ((int*)y)[gid] = lt_f2i(v); break;
    case T_I64: {
        long long l = lt_f2ll(v);
        int* q = (int*)y;
        q[2 * gid] = int(l & 0xffffffff);
        q[2 * gid + 1] = int(l >> 32);
        break;
    }
    case T_BOOL: y[gid] = v != 0.0f ? 1 : 0; break;
    case T_F16: ((unsigned short*)y)[gid] = lt_f2h(v); break;
    case T_BF16: ((unsigned short*)y)[gid] = lt_f2bf(v); break;
    default: ((float*)y)[gid] = v; break;
    }
}

#define TILE 16

// lt_load_ab reads element i of a GEMM operand whose elements are float32
// or, when t is T_F16 or T_BF16, 16-bit values widened exactly.
LT_INLINE float lt_load_ab(const float* p, uint t, int i) {
    switch (t) {
    case T_F16: return lt_h2f(((const unsigned short*)p)[i]);
    case T_BF16: return lt_bf2f(((const unsigned short*)p)[i]);
    default: return p[i];
    }
}

// gemm_f32 computes y[b] = alpha * A[b] x B[b] (+ beta * C) for every batch
// b, 16x16 output tiles per block, staging tiles of A and B in shared
// memory. y is contiguous [batch, m, n]. A and B hold float32 values, or
// 16-bit ones of type ab_type (T_F16, T_BF16: the fallback of a half GEMM
// cuBLAS cannot read); sums are float32 either way. Launch: grid
// (ceil(n/16), ceil(m/16), batch), block (16, 16, 1).
extern "C" __global__ void gemm_f32(const float* x, const float* w, const float* c, float* y, const GemmArgs a) {
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    uint lx = threadIdx.x;
    uint ly = threadIdx.y;
    uint row = blockIdx.y * TILE + ly;
    uint col = blockIdx.x * TILE + lx;
    uint b = blockIdx.z;
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
        uint ka = k0 + lx;
        uint kb = k0 + ly;
        ta[ly][lx] = (row < a.m && ka < a.k) ? lt_load_ab(x, a.ab_type, oa + int(row) * a.sam + int(ka) * a.sak) : 0.0f;
        tb[ly][lx] = (kb < a.k && col < a.n) ? lt_load_ab(w, a.ab_type, ob + int(kb) * a.sbk + int(col) * a.sbn) : 0.0f;
        __syncthreads();
        for (uint j = 0; j < TILE; j++) {
            acc = lt_fmaf(ta[ly][j], tb[j][lx], acc);
        }
        __syncthreads();
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

extern "C" __global__ void softmax_f32(const float* x, float* y, const SoftmaxArgs a) {
    uint gid = lt_gid();
    if (gid >= a.outer * a.inner) {
        return;
    }
    uint o = gid / a.inner;
    uint ii = gid % a.inner;
    uint base = o * a.axis * a.inner + ii;
    float mx = -lt_inff();
    for (uint j = 0; j < a.axis; j++) {
        mx = lt_fmaxf(mx, x[base + j * a.inner]);
    }
    float sum = 0.0f;
    for (uint j = 0; j < a.axis; j++) {
        sum += lt_expf(x[base + j * a.inner] - mx);
    }
    if (a.use_log != 0) {
        float ls = lt_logf(sum);
        for (uint j = 0; j < a.axis; j++) {
            y[base + j * a.inner] = x[base + j * a.inner] - mx - ls;
        }
        return;
    }
    for (uint j = 0; j < a.axis; j++) {
        y[base + j * a.inner] = lt_expf(x[base + j * a.inner] - mx) / sum;
    }
}

extern "C" __global__ void layernorm_f32(const float* x, const float* s, const float* bias, float* y, const LayerNormArgs a) {
    uint gid = lt_gid();
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
    float inv = 1.0f / lt_sqrtf(var + a.eps);
    for (uint j = 0; j < a.cols; j++) {
        float r = (x[base + j] - mean) * inv * s[j];
        if (a.has_bias != 0) {
            r += bias[j];
        }
        y[base + j] = r;
    }
}

extern "C" __global__ void reduce_f32(const float* x, float* y, const ReduceArgs a) {
    uint gid = lt_gid();
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
        acc = -lt_inff();
    } else if (a.op == R_MIN) {
        acc = lt_inff();
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
        case R_MAX: acc = lt_fmaxf(acc, v); break;
        case R_MIN: acc = lt_fminf(acc, v); break;
        default: acc += v; break;
        }
    }
    if (a.op == R_MEAN) {
        acc /= float(a.nred);
    }
    y[gid] = acc;
}

extern "C" __global__ void argmax_f32(const float* x, int* y, const ArgMaxArgs a) {
    uint gid = lt_gid();
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

extern "C" __global__ void gather_f32(const float* x, const int* idx, float* y, const GatherArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    uint ii = gid % a.inner;
    uint t = gid / a.inner;
    uint j = t % a.nidx;
    uint o = t / a.nidx;
    long long k = a.idx64 != 0 ? ((long long)(uint(idx[2 * j])) | ((long long)(idx[2 * j + 1]) << 32)) : (long long)(idx[j]);
    if (k < 0) {
        k += (long long)(a.axis_len);
    }
    if (k < 0 || k >= (long long)(a.axis_len)) {
        y[gid] = 0.0f;
        return;
    }
    y[gid] = x[(o * a.axis_len + uint(k)) * a.inner + ii];
}

// conv2d_f32 is a direct convolution, one thread per output element of
// y[n, m, oh, ow]; weights are [m, c/group, kh, kw].
extern "C" __global__ void conv2d_f32(const float* x, const float* w, const float* bias, float* y, const ConvArgs a) {
    uint gid = lt_gid();
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
        const float* xp = x + ((b * a.c + c0 + ci) * a.h) * a.w;
        const float* wp = w + ((m * cg + ci) * a.kh) * a.kw;
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
                acc = lt_fmaf(xp[iy * int(a.w) + ix], wp[ky * a.kw + kx], acc);
            }
        }
    }
    y[gid] = acc;
}

// lt_pad_count is how many of k taps from start, d apart, fall below limit.
LT_INLINE int lt_pad_count(int start, int k, int d, int limit) {
    if (limit <= start) {
        return 0;
    }
    int n = (limit - start + d - 1) / d;
    return k < n ? k : n;
}

extern "C" __global__ void pool2d_f32(const float* x, float* y, const PoolArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    uint ox = gid % a.ow;
    uint t = gid / a.ow;
    uint oy = t % a.oh;
    uint p = t / a.oh;
    const float* xp = x + p * a.h * a.w;
    int y0 = int(oy) * a.sh - a.ph;
    int x0 = int(ox) * a.sw - a.pw;
    float best = -3.40282346638528859812e+38f;
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
            best = lt_fmaxf(best, v);
            sum += v;
            cnt++;
        }
    }
    if (a.is_max != 0) {
        y[gid] = best;
        return;
    }
    if (a.include_pad != 0) {
        cnt = lt_pad_count(y0, int(a.kh), a.dh, int(a.h) + a.peh) * lt_pad_count(x0, int(a.kw), a.dw, int(a.w) + a.pew);
    }
    y[gid] = cnt > 0 ? sum / float(cnt) : 0.0f;
}

extern "C" __global__ void batchnorm_f32(const float* x, const float* s, const float* bias, const float* mean, const float* var, float* y, const BatchNormArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    uint c = (gid / a.inner) % a.c;
    y[gid] = (x[gid] - mean[c]) / lt_sqrtf(var[c] + a.eps) * s[c] + bias[c];
}

// im2col_f32 writes the column matrix of a convolution, one thread per
// element of col[n][g][k][p]: row k = c*kh*kw + ky*kw + kx of group g's
// channels, column p = oy*ow + ox; zero where the tap falls in the
// padding. a.n is the element count of col.
extern "C" __global__ void im2col_f32(const float* x, float* col, const ConvArgs a) {
    uint gid = lt_gid();
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
extern "C" __global__ void resize_f32(const float* x, const int* idx, const float* w, float* y, const ResizeArgs a) {
    uint gid = lt_gid();
    if (gid >= a.n) {
        return;
    }
    uint ii = gid % a.inner;
    uint t = gid / a.inner;
    uint j = t % a.nout;
    uint o = t / a.nout;
    const int* ti = idx + j * a.k;
    const float* tw = w + j * a.k;
    if (ti[0] < 0) {
        y[gid] = a.extrap;
        return;
    }
    const float* s = x + o * a.nin * a.inner + ii;
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
extern "C" __global__ void pad_f32(const float* x, float* y, const PadArgs a) {
    uint gid = lt_gid();
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
extern "C" __global__ void convtranspose2d_f32(const float* x, const float* w, const float* bias, float* y, const ConvArgs a) {
    uint gid = lt_gid();
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
        const float* xp = x + (b * a.c + c) * a.h * a.w;
        const float* wp = w + ((c * mg + mi) * a.kh) * a.kw;
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
                acc = lt_fmaf(xp[iy * int(a.w) + tx / a.sw], wp[ky * a.kw + kx], acc);
            }
        }
    }
    y[gid] = acc;
}
