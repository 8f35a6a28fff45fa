//go:build (!amd64 && !arm64) || purego

package cpu

// hasAVX2FMA is false: this build has no assembly kernels.
const hasAVX2FMA = false

// asmKernels returns the pure-Go kernels: this build has no others.
func asmKernels() [gemmMR]kernelRow { return goKernels() }

func init() {
	microKernels, kernelName = goKernels(), "go"
}

// hasAVX512 is false: this build has no assembly kernels.
const hasAVX512 = false

// avx512Six returns k: this build has no AVX-512 kernels.
func avx512Six(k kernelRow) kernelRow { return k }

// avx512HalfTall returns no tall kernels: this build has no assembly.
func avx512HalfTall(halfKind) tallKernels[uint16] { return tallKernels[uint16]{} }
