package cpu

// KernelSet names the kernel families this process runs, chosen once at
// init from the CPU's features: "go" (the pure-Go kernels),
// "avx2-fma", "avx512-tall+avx2-fma" (AVX-512 only for the tall GEMM
// tiles, where 512-bit vectors run at half width, as on Zen 4),
// "avx512+avx2-fma" (AVX-512 direct convolution and GEMM kernels too,
// where they run at full width) or "neon". Benchmark reports print it
// beside their figures.
func KernelSet() string { return kernelName }

// Int8Kernel names the int8 matrix-product kernel this CPU runs:
// "avx512vnni", "avxvnni", "avx2" or "go".
func Int8Kernel() string { return qkernBest.name }
