//go:build (!amd64 && !arm64) || purego

package cpu

// asmRuns reports whether this build's assembly kernels run on this
// CPU: this build has none (purego, or not amd64).
func asmRuns() bool { return false }
