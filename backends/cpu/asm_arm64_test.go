//go:build arm64 && !purego

package cpu

import "testing"

// TestNEONKernelsSelected checks that an arm64 build runs its NEON
// kernels: ASIMD is part of the arm64 baseline, so a CPU (or emulator)
// that does not report it would leave every NEON kernel untested here.
func TestNEONKernelsSelected(t *testing.T) {
	if !hasNEON {
		t.Fatal("golang.org/x/sys/cpu reports no ASIMD: the NEON kernels do not run and their tests compare Go with Go")
	}
	if got, want := kernelName, "neon"; got != want {
		t.Errorf("kernelName = %q, want %q", got, want)
	}
	if !asmRuns() {
		t.Error("asmRuns() = false, want true")
	}
}
