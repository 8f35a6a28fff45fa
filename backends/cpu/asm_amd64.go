//go:build amd64 && !purego

package cpu

// asmRuns reports whether this build's assembly kernels run on this
// CPU: it has them (amd64, no purego tag) and the CPU has AVX2 and FMA.
func asmRuns() bool { return hasAVX2FMA }
