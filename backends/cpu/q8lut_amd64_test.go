//go:build amd64 && !purego

package cpu

import (
	"math/rand/v2"
	"testing"
)

// TestLut8MatchesGo compares the AVX-512 VBMI table lookup with lut8Go
// on random tables and bytes of every length around its 64-byte steps,
// with guard bytes after the output.
func TestLut8MatchesGo(t *testing.T) {
	if !hasLUT8 {
		t.Skip("the CPU lacks AVX-512 VBMI: lut8 is the Go loop")
	}
	r := rand.New(rand.NewPCG(3, 17))
	var tab [256]byte
	for i := range tab {
		tab[i] = byte(r.IntN(256))
	}
	for n := range 300 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.IntN(256))
		}
		if n > 2 {
			src[0], src[1], src[n-1] = 0, 255, 128
		}
		const guard = 7
		got, want := make([]byte, n+guard), make([]byte, n+guard)
		for i := range got {
			got[i], want[i] = 0x5a, 0x5a
		}
		lut8(got, src, &tab)
		lut8Go(want, src, &tab)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: byte %d is %#x, want %#x", n, i, got[i], want[i])
			}
		}
	}
}
