package cpu

import "testing"

// needAsm skips a test that checks an assembly kernel against its pure-Go
// twin when the assembly does not run: under the purego tag, on an
// architecture other than amd64 and arm64, or on a CPU without their
// features (AVX2 and FMA; ASIMD), the kernel under test is the twin
// itself, and the test would compare Go with Go.
func needAsm(t *testing.T) {
	t.Helper()
	if !asmRuns() {
		t.Skip("no assembly kernels in this build or on this CPU: the kernel would be compared with itself")
	}
}
