//go:build amd64 && !purego

package cpu

import (
	"math"
	"testing"
)

// TestBilinearRowAVX compares the gathering bilinear row with
// bilinearRowGo bit for bit, on random taps and weights over rows of
// several lengths, with a guard cell past the row.
func TestBilinearRowAVX(t *testing.T) {
	if !hasAVX {
		t.Skip("this CPU has no AVX2: both sides would be the same Go loop")
	}
	r := nnRng(21)
	const win = 37
	r1, r2 := make([]float32, win), make([]float32, win)
	for i := range r1 {
		r1[i], r2[i] = r.Float32()*8-4, r.Float32()*8-4
	}
	for _, n := range []int{1, 7, 8, 9, 16, 23, 64, 203} {
		x1, x2 := make([]int32, n), make([]int32, n)
		wx2, wx1 := make([]float32, n), make([]float32, n)
		for i := range n {
			x1[i] = int32(r.IntN(win))
			x2[i] = int32(min(int(x1[i])+1, win-1))
			wx1[i] = r.Float32()
			wx2[i] = 1 - wx1[i]
		}
		dy1 := r.Float32()
		dy2 := 1 - dy1
		want := make([]float32, n)
		bilinearRowGo(want, r1, r2, x1, x2, wx2, wx1, dy2, dy1)
		got := make([]float32, n+1)
		got[n] = -7
		bilinearRow32(got[:n], r1, r2, x1, x2, wx2, wx1, dy2, dy1)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: [%d] = %v, want %v", n, i, got[i], want[i])
			}
		}
		if got[n] != -7 {
			t.Fatalf("n=%d: the guard cell was written", n)
		}
	}
}
