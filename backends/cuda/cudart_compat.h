// cudart_compat.h: the few CUDA language definitions kernels.cu uses, in
// two flavours.
//
// Device flavour (clang -x cuda --cuda-device-only -nocudainc): no CUDA
// headers exist on the build machines, so the attributes, the built-in
// index variables, the barrier and the arithmetic the kernels need are
// defined here on clang's NVPTX builtins. Nothing here calls libdevice:
// the generated PTX must have no .extern functions.
//
// Host flavour (any C++17 compiler, LINTEL_CUDA_HOST defined): the same
// names on plain C++, for the host simulation in internal/hostsim, which
// runs each block's threads as real threads. threadIdx and blockIdx are
// thread-locals there, blockDim and gridDim are set once per launch, and
// __syncthreads() is the simulation's block barrier (lt_host_sync).
//
// Arithmetic goes through lt_* functions that round the same way in both
// flavours (IEEE single and double, fused multiply-add only where written
// as lt_fmaf/lt_fma, no flushing of subnormals), so the simulation
// computes the bits the GPU computes.
#ifndef LINTEL_CUDART_COMPAT_H
#define LINTEL_CUDART_COMPAT_H

struct lt_dim3 {
    unsigned int x, y, z;
};

#if defined(__CUDA__) && !defined(LINTEL_CUDA_HOST)

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define LT_INLINE static __attribute__((device)) __attribute__((always_inline)) inline

#define LT_SREG3(a) lt_dim3{(unsigned int)__nvvm_read_ptx_sreg_##a##_x(), (unsigned int)__nvvm_read_ptx_sreg_##a##_y(), (unsigned int)__nvvm_read_ptx_sreg_##a##_z()}
#define threadIdx (LT_SREG3(tid))
#define blockIdx (LT_SREG3(ctaid))
#define blockDim (LT_SREG3(ntid))
#define gridDim (LT_SREG3(nctaid))

// __syncthreads is a clang builtin (bar.sync 0).

#else // host flavour

#define __global__
#define __device__
#define __shared__ static
#define LT_INLINE static inline

extern thread_local lt_dim3 lt_thread_idx;
extern thread_local lt_dim3 lt_block_idx;
extern lt_dim3 lt_block_dim;
extern lt_dim3 lt_grid_dim;
void lt_host_sync();

#define threadIdx lt_thread_idx
#define blockIdx lt_block_idx
#define blockDim lt_block_dim
#define gridDim lt_grid_dim
#define __syncthreads() lt_host_sync()

#endif

// IEEE arithmetic, the same in both flavours. The compiler builtins lower
// to fma.rn / sqrt.rn / abs / min / max / cvt.rni in PTX and to the C
// library or SSE instructions on the host.
LT_INLINE float lt_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
LT_INLINE double lt_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
LT_INLINE float lt_sqrtf(float x) { return __builtin_sqrtf(x); }
LT_INLINE float lt_fabsf(float x) { return __builtin_fabsf(x); }
LT_INLINE double lt_fabs(double x) { return __builtin_fabs(x); }
LT_INLINE double lt_rint(double x) { return __builtin_rint(x); }
// lt_fmaxf and lt_fminf return the other operand when one is NaN, as
// Metal's max and min do.
LT_INLINE float lt_fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
LT_INLINE float lt_fminf(float a, float b) { return __builtin_fminf(a, b); }

LT_INLINE unsigned long long lt_double_bits(double x) {
    unsigned long long u;
    __builtin_memcpy(&u, &x, sizeof u);
    return u;
}

LT_INLINE double lt_bits_double(unsigned long long u) {
    double x;
    __builtin_memcpy(&x, &u, sizeof x);
    return x;
}

LT_INLINE unsigned int lt_float_bits(float x) {
    unsigned int u;
    __builtin_memcpy(&u, &x, sizeof u);
    return u;
}

LT_INLINE float lt_bits_float(unsigned int u) {
    float x;
    __builtin_memcpy(&x, &u, sizeof x);
    return x;
}

// 16-bit formats. lt_f2h and lt_f2bf round a float to nearest even into
// IEEE half or bfloat16 bits (values beyond the range become infinite,
// half's subnormals are kept, NaN becomes the quiet NaN 0x7fff); lt_h2f
// and lt_bf2f widen exactly. The device flavour uses the PTX conversions
// (cvt.rn.f16.f32, cvt.rn.bf16.f32: sm_80, PTX 7.0), the host flavour
// the same rounding in integer arithmetic.
LT_INLINE float lt_bf2f(unsigned short h) { return lt_bits_float((unsigned int)h << 16); }

#if defined(__CUDA__) && !defined(LINTEL_CUDA_HOST)

LT_INLINE unsigned short lt_f2h(float f) {
    unsigned short r;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f));
    return r;
}

LT_INLINE unsigned short lt_f2bf(float f) {
    unsigned short r;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f));
    return r;
}

LT_INLINE float lt_h2f(unsigned short h) {
    float r;
    asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h));
    return r;
}

#else // host flavour

LT_INLINE unsigned short lt_f2h(float f) {
    unsigned int u = lt_float_bits(f);
    unsigned int sign = (u >> 16) & 0x8000u;
    unsigned int a = u & 0x7fffffffu;
    if (a > 0x7f800000u) {
        return 0x7fff;
    }
    if (a >= 0x477ff000u) { // 65520 and beyond round to infinity
        return (unsigned short)(sign | 0x7c00u);
    }
    if (a >= 0x38800000u) { // 2^-14 and beyond: a normal half
        unsigned int r = a - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1u);
        return (unsigned short)(sign | (r >> 13));
    }
    if (a < 0x33000000u) { // up to 2^-25, which ties to even zero
        return (unsigned short)sign;
    }
    unsigned int e = a >> 23;
    unsigned int m = (a & 0x7fffffu) | 0x800000u;
    unsigned int shift = 126u - e;
    unsigned int h = m >> shift;
    unsigned int rem = m & ((1u << shift) - 1u);
    unsigned int half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (h & 1u))) {
        h++;
    }
    return (unsigned short)(sign | h);
}

LT_INLINE unsigned short lt_f2bf(float f) {
    unsigned int u = lt_float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return 0x7fff;
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    return (unsigned short)(u >> 16);
}

LT_INLINE float lt_h2f(unsigned short h) {
    unsigned int sign = (unsigned int)(h & 0x8000u) << 16;
    unsigned int e = (h >> 10) & 0x1fu;
    unsigned int m = h & 0x3ffu;
    if (e == 0x1fu) {
        return lt_bits_float(sign | 0x7f800000u | (m << 13));
    }
    if (e == 0) {
        float v = (float)m * 5.9604644775390625e-8f; // m * 2^-24, exact
        return sign != 0 ? -v : v;
    }
    return lt_bits_float(sign | ((e + 112u) << 23) | (m << 13));
}

#endif

LT_INLINE float lt_inff() { return __builtin_inff(); }
LT_INLINE double lt_inf() { return __builtin_inf(); }
LT_INLINE float lt_nanf() { return __builtin_nanf(""); }

#endif
