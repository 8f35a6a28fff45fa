package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestQkernTapsMatchesGo compares each assembly kernel that reads B in
// place (runTaps) with its Go twin, qkernTapsGo, on random and extreme
// bytes, taps in any order with overlapping steps, and guard cells
// around the tile.
func TestQkernTapsMatchesGo(t *testing.T) {
	needQAsm(t)
	r := rand.New(rand.NewPCG(29, 21))
	const guard, poison = 5, -7777
	ran := false
	for _, kern := range qkernAsm {
		if kern.runTaps == nil {
			continue
		}
		ran = true
		for _, tc := range []struct {
			taps       []int
			kgt, bstep int
		}{
			{[]int{0}, 1, 128},
			{[]int{0, 4, 8}, 3, 512},
			{[]int{900, 4, 0, 452}, 16, 1000},
			{[]int{12, 0}, 7, 132},
			{[]int{0, 0}, 0, 128},
		} {
			for _, ext := range [][2]int{{-1, -1}, {0x80, 255}, {0x7f, 255}, {0x80, 0}} {
				kk := 4 * tc.kgt * len(tc.taps)
				lda := kk + 8
				a := make([]byte, qMR*lda)
				qFill(r, a, ext[0])
				end := 0
				for _, off := range tc.taps {
					end = max(end, off+max(tc.kgt-1, 0)*tc.bstep+4*qNR)
				}
				b := make([]byte, end)
				qFill(r, b, ext[1])
				ldc := qNR + 2*guard
				got, want, q := qTileCase(r, ldc, guard, poison)
				// Every other case adds no correction (a nil q).
				qp := &q
				if ext[0] == 0x80 {
					qp = nil
				}
				kern.runTaps(a, lda, b, tc.taps, tc.kgt, tc.bstep, got[guard:], ldc, qp)
				qkernTapsGo(a, lda, b, tc.taps, tc.kgt, tc.bstep, want[guard:], ldc, qp)
				name := fmt.Sprintf("%s taps %v kgt %d extremes %v correction %v", kern.name, tc.taps, tc.kgt, ext, qp != nil)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s: element %d (row %d, column %d) is %d, want %d", name, i, (i-guard)/ldc, (i-guard)%ldc, got[i], want[i])
					}
				}
			}
		}
	}
	if !ran {
		t.Skip("no assembly kernel reads B in place on this CPU")
	}
}

// TestQkernTapsMatchesPacked checks qkernTapsGo against the packed-panel
// kernel qkernGo on the same B, packed from the taps' rows.
func TestQkernTapsMatchesPacked(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 22))
	taps, kgt, bstep := []int{0, 8, 260}, 5, 300
	l := qLayout{g: 4}
	k := 4 * kgt * len(taps)
	a := make([]byte, qMR*k)
	qFill(r, a, -1)
	b := make([]byte, 260+(kgt-1)*bstep+4*qNR)
	qFill(r, b, -1)
	// Row 4(t·kgt+s)+u of B, column j, is b[taps[t]+s·bstep+4j+u].
	rows := make([]byte, k*qNR)
	for t, off := range taps {
		for s := range kgt {
			for u := range 4 {
				for j := range qNR {
					rows[(4*(t*kgt+s)+u)*qNR+j] = b[off+s*bstep+4*j+u]
				}
			}
		}
	}
	panel := make([]byte, l.panelSize(k))
	packQBPanel(l, panel, rows, qNR, k, qNR, 0, 0, make([]int32, qNR))
	var q qCorr
	for i := range qMR {
		q.za[i], q.rs[i] = int32(i)-3, int32(7*i)
	}
	for j := range qNR {
		q.cb[j], q.zb[j] = int32(j*j), int32(j)-16
	}
	got, want := make([]int32, qMR*qNR), make([]int32, qMR*qNR)
	qkernTapsGo(a, k, b, taps, kgt, bstep, got, qNR, &q)
	qkernGo(l, a, k, panel, k/4, want, qNR, &q)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("element %d: got %d, want %d", i, got[i], want[i])
		}
	}
}

// TestInterleave4MatchesGo compares interleave4 with interleave4Go for
// widths around the 32-pixel steps, with guard bytes after the output.
func TestInterleave4MatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 23))
	for _, n := range []int{1, 7, 31, 32, 33, 56, 64, 100} {
		for _, mask := range []byte{0, 0x80} {
			ld := n + 3
			src := make([]byte, 3*ld+n)
			qFill(r, src, -1)
			const guard = 9
			got, want := make([]byte, 4*n+guard), make([]byte, 4*n+guard)
			for i := range got {
				got[i], want[i] = 0xa5, 0xa5
			}
			interleave4(got, src, ld, n, mask)
			interleave4Go(want, src, ld, n, mask)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("n=%d mask %#x: byte %d is %#x, want %#x", n, mask, i, got[i], want[i])
				}
			}
			for i := range n {
				for u := range 4 {
					if w := src[u*ld+i] ^ mask; want[4*i+u] != w {
						t.Fatalf("n=%d mask %#x: pixel %d channel %d is %#x, want %#x", n, mask, i, u, want[4*i+u], w)
					}
				}
			}
		}
	}
}

// TestTapMajorWeights checks the reorder of a weight row from channel
// after channel to tap after tap, with and without added channels.
func TestTapMajorWeights(t *testing.T) {
	// Two rows, 2 channels of 3 taps: value 10·row + 3·channel + tap.
	w := []byte{0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}
	for _, tc := range []struct {
		cgPad int
		want  []byte
	}{
		{2, []byte{0, 3, 1, 4, 2, 5, 10, 13, 11, 14, 12, 15}},
		{4, []byte{0, 3, 0, 0, 1, 4, 0, 0, 2, 5, 0, 0, 10, 13, 0, 0, 11, 14, 0, 0, 12, 15, 0, 0}},
	} {
		dst := make([]byte, 2*3*tc.cgPad)
		for i := range dst {
			dst[i] = 0xee
		}
		if got := tapMajorWeights(dst, w, 2, 2, tc.cgPad); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("cgPad %d: got %v, want %v", tc.cgPad, got, tc.want)
		}
	}
}
