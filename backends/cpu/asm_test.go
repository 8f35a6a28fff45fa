package cpu

import (
	"runtime"
	"slices"
	"testing"
)

// needAsm skips a test that checks an assembly kernel against its pure-Go
// twin when the assembly does not run: under the purego tag, on an
// architecture without assembly kernels, or on a CPU without their
// features (AVX2 and FMA on amd64, ASIMD on arm64), the kernel under test
// is the twin itself, and the test would compare Go with Go.
func needAsm(t *testing.T) {
	t.Helper()
	if !asmRuns() {
		t.Skip("no assembly kernels in this build or on this CPU: the kernel would be compared with itself")
	}
}

// needAsmOn is needAsm for a kernel that has assembly on the listed
// architectures only: on the others it is its twin, and the test would
// compare Go with Go.
func needAsmOn(t *testing.T, arches ...string) {
	t.Helper()
	if !slices.Contains(arches, runtime.GOARCH) {
		t.Skipf("this kernel has no assembly on %s: it would be compared with itself", runtime.GOARCH)
	}
	needAsm(t)
}
