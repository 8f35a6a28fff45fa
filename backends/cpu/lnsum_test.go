package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLnSums8MatchesGo checks the eight-row vector sums against the row
// loop bit for bit, on row lengths up to 40 and 384, rows packed and
// strided, with rows far from zero and special values.
func TestLnSums8MatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(11, 12))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e30}
	for _, n := range append([]int{384}, func() []int {
		var s []int
		for i := 1; i <= 40; i++ {
			s = append(s, i)
		}
		return s
	}()...) {
		for _, stride := range []int{n, n + 3} {
			x := make([]float32, 7*stride+n)
			for i := range x {
				x[i] = (r.Float32()*2-1)*3 + 1000*float32(i%2)
				if r.IntN(64) == 0 {
					x[i] = specials[r.IntN(len(specials))]
				}
			}
			var gs, gq, ws, wq [8]float32
			if !lnSums8(x, n, stride, &gs, &gq) {
				t.Fatalf("n=%d stride=%d: no vector sums", n, stride)
			}
			lnSums8Go(x, n, stride, &ws, &wq)
			for i := range 8 {
				for _, p := range [][2]float32{{gs[i], ws[i]}, {gq[i], wq[i]}} {
					if math.Float32bits(p[0]) != math.Float32bits(p[1]) && !(p[0] != p[0] && p[1] != p[1]) {
						t.Fatalf("n=%d stride=%d row %d: got %v, want %v", n, stride, i, p[0], p[1])
					}
				}
			}
		}
	}
}

// TestLayerNormEightRows checks that LayerNormalization's rows come out
// the same, bit for bit, when their sums run eight rows at once as when
// each row runs alone.
func TestLayerNormEightRows(t *testing.T) {
	const rows, n = 21, 40
	r := rand.New(rand.NewPCG(13, 14))
	x := make([]float32, rows*n)
	for i := range x {
		x[i] = (r.Float32()*2-1)*2 + 50*float32(i/n%3)
	}
	s, b := make([]float32, n), make([]float32, n)
	for i := range s {
		s[i], b[i] = r.Float32()+0.5, r.Float32()-0.5
	}
	scale, bias := mk([]int{n}, s), mk([]int{n}, b)
	k := &layerNormKernel{eps: 1e-5}
	got, want := make([]float32, rows*n), make([]float32, rows*n)
	layerNormRun(k, got, x, scale, bias, nil, nil, 0, rows, n)
	for row := range rows {
		layerNormRun(k, want, x, scale, bias, nil, nil, row, row+1, n)
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("element %d (row %d): %v with eight rows at once, %v alone", i, i/n, got[i], want[i])
		}
	}
}
