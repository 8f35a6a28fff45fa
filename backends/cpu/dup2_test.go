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

// TestDup2RowsMany wants dup2RowsMany to write source row r, each word
// doubled, to output rows 2r and 2r+1, for widths that the AVX kernel
// takes (multiples of 8) and that it leaves to the row-by-row path,
// leaving the guard words after the output alone. The reference
// indexes the words one by one.
func TestDup2RowsMany(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	const guard = 0xDEADBEEF
	for _, w := range []int{1, 7, 8, 13, 16, 56, 64} {
		for _, rows := range []int{0, 1, 3, 7} {
			s := make([]uint32, rows*w)
			for i := range s {
				s[i] = r.Uint32()
			}
			n := 4 * rows * w
			got := make([]uint32, n+5)
			for i := range got {
				got[i] = guard
			}
			dup2RowsMany(got[:n], s, rows, w)
			for i := range n {
				row, col := i/(2*w), i%(2*w)
				if want := s[(row/2)*w+col/2]; got[i] != want {
					t.Fatalf("w=%d rows=%d: output row %d word %d = %#x, want %#x", w, rows, row, col, got[i], want)
				}
			}
			for i, v := range got[n:] {
				if v != guard {
					t.Fatalf("w=%d rows=%d: guard word %d overwritten", w, rows, i)
				}
			}
		}
	}
}
