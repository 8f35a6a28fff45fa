package cpu

import (
	"math/rand/v2"
	"testing"
)

// TestSumBytesMatchesGo compares sumBytes with sumBytesGo for lengths
// around the kernel's step of 64, both flips, and all-255 input (the
// largest sums).
func TestSumBytesMatchesGo(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no byte-sum kernel in this build (sumBytes is sumBytesGo)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 200, 3136, 70000} {
		x := make([]byte, n)
		for i := range x {
			x[i] = byte(r.Uint32())
		}
		full := make([]byte, n)
		for i := range full {
			full[i] = 255
		}
		for _, in := range [][]byte{x, full} {
			for _, flip := range []byte{0, 0x80} {
				if got, want := sumBytes(in, flip), sumBytesGo(in, flip); got != want {
					t.Errorf("n=%d flip=%#x: sumBytes = %d, want %d", n, flip, got, want)
				}
			}
		}
	}
}
