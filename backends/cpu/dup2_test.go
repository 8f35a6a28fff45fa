package cpu

import (
	"math/rand/v2"
	"testing"
)

// TestDup2 wants dup2 (AVX for 4-byte words where the CPU has it) to
// give dup2Go's words on every length, leaving the guard words after
// the output alone.
func TestDup2(t *testing.T) {
	if !asmRuns() {
		t.Skip("no assembly in this build: dup2 is dup2Go")
	}
	r := rand.New(rand.NewPCG(39, 40))
	const guard = 0xDEADBEEF
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 40, 63, 64, 100} {
		s := make([]uint32, n)
		for i := range s {
			s[i] = r.Uint32()
		}
		got := make([]uint32, 2*n+3)
		for i := range got {
			got[i] = guard
		}
		want := make([]uint32, 2*n)
		dup2(got[:2*n+1], s)
		dup2Go(want, s)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n=%d: word %d = %#x, want %#x", n, i, got[i], want[i])
			}
		}
		for i, v := range got[2*n:] {
			if v != guard {
				t.Fatalf("n=%d: guard word %d overwritten", n, i)
			}
		}
	}
}
