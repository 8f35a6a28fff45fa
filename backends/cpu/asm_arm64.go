//go:build arm64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// hasNEON reports whether the NEON (Advanced SIMD) kernels can run here.
// ASIMD is part of the arm64 baseline: every core Go runs on has it, so
// this is true in practice; it is read once from golang.org/x/sys/cpu
// anyway, so that a system that does not report it runs the Go twins.
var hasNEON = cpu.ARM64.HasASIMD

// asmRuns reports whether this build's assembly kernels run on this
// CPU: it has them (arm64, no purego tag) and the CPU has ASIMD.
func asmRuns() bool { return hasNEON }

// neonSplit returns the length of d's head that the NEON loops take, a
// multiple of 4 (0 without NEON).
func neonSplit(d []float32) int {
	if !hasNEON {
		return 0
	}
	return len(d) &^ 3
}
