//go:build amd64 && !purego

package cpu

import (
	"math"
	"testing"
)

// TestBilinearRowAVX compares the AVX bilinear row with bilinearRowGo
// bit for bit, with a guard cell past the row, over rows of several
// lengths: on random taps (the gathers) and on the monotone taps of an
// upsampling (permuted windows, then gathers near the row's end).
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
	for _, c := range []struct {
		n  int
		up bool
		// down: halving, taps two columns apart (windows of 16).
		down bool
	}{{1, false, false}, {7, false, false}, {8, false, false}, {9, false, false}, {16, false, false}, {23, false, false}, {64, false, false}, {203, false, false},
		{8, true, false}, {40, true, false}, {73, true, false}, {16, false, true}, {17, false, true}} {
		n := c.n
		x1, x2 := make([]int32, n), make([]int32, n)
		wx2, wx1 := make([]float32, n), make([]float32, n)
		for i := range n {
			x1[i] = int32(r.IntN(win))
			if c.up {
				x1[i] = int32(i * (win - 1) / c.n)
			}
			if c.down {
				x1[i] = int32(min(2*i, win-1))
			}
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
		var w bilinearWin
		w.plan(x1, x2, win)
		if (c.up || c.down) && n >= 16 && w.groups == 0 {
			t.Fatalf("n=%d: monotone taps took no window", n)
		}
		if c.down && w.span != 16 {
			t.Fatalf("n=%d: halving taps took windows of %d, want 16", n, w.span)
		}
		bilinearRow32(got[:n], r1, r2, x1, x2, wx2, wx1, dy2, dy1, &w)
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
