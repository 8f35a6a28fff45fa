//go:build !amd64 || purego

package cpu

// hasHalfAsm is false: this build has no assembly kernels.
func hasHalfAsm(halfKind) bool { return false }

// asmHalfKernels returns the pure-Go kernels: this build has no others.
func asmHalfKernels(k halfKind) halfSet { return goHalfKernels(k) }

func init() {
	for _, k := range []halfKind{halfF16, halfBF16} {
		halfKernels[k] = goHalfKernels(k)
	}
}
