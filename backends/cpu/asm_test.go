package cpu

import "testing"

// needAsm skips a test that checks an assembly kernel against its pure-Go
// twin when the assembly does not run: under the purego tag, on another
// architecture or on a CPU without AVX2 and FMA, the kernel under test is
// the twin itself, and the test would compare Go with Go.
func needAsm(t *testing.T) {
	t.Helper()
	if !asmRuns() {
		t.Skip("no assembly kernels in this build or on this CPU: the kernel would be compared with itself")
	}
}
