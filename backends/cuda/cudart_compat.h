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

LT_INLINE float lt_inff() { return __builtin_inff(); }
LT_INLINE double lt_inf() { return __builtin_inf(); }
LT_INLINE float lt_nanf() { return __builtin_nanf(""); }

#endif
