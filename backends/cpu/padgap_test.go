package cpu

import "testing"

// TestZeroGaps checks zeroGaps (one masked store a row where the CPU has
// AVX-512) against zeroGapsGo on gaps of every length up to a vector and
// past it: exactly the gaps become zero, every other cell keeps its
// value.
func TestZeroGaps(t *testing.T) {
	for _, pitch := range []int{17, 20, 34, 64} {
		for gap := 1; gap <= min(pitch, 20); gap++ {
			for _, rows := range []int{0, 1, 2, 7} {
				n := rows*pitch + 8
				got, want := make([]float32, n), make([]float32, n)
				for i := range got {
					got[i], want[i] = float32(i+1), float32(i+1)
				}
				if rows > 0 {
					zeroGaps(got[3:], pitch, gap, rows)
				}
				for r := range rows {
					for j := range gap {
						want[3+r*pitch+j] = 0
					}
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("pitch=%d gap=%d rows=%d: cell %d is %v, want %v", pitch, gap, rows, i, got[i], want[i])
					}
				}
			}
		}
	}
}
