package cpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestParMapMatchesMapCopy wants parMap's rows, split or not, with its
// repeated-row and repeat-factor shortcuts, to be mapCopy's bytes, guard
// bytes after the output untouched.
func TestParMapMatchesMapCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	pool := newWorkerPool(2)
	defer pool.close()
	type dimMap func(o, in int) int
	half := func(f int) dimMap { return func(o, _ int) int { return o / f } }
	random := func(o, in int) int { return r.IntN(in+1) - 1 } // -1: fill
	clampHalf := func(o, in int) int { return min(o/2, in-1) }
	tests := []struct {
		name string
		in   []int
		out  []int
		maps []dimMap
	}{
		{"upsample 2", []int{2, 8, 20, 20}, []int{2, 8, 40, 40}, []dimMap{half(1), half(1), half(2), half(2)}},
		{"upsample 2 odd", []int{3, 21, 20}, []int{3, 41, 39}, []dimMap{half(1), clampHalf, clampHalf}},
		{"upsample 3", []int{4, 10, 10}, []int{4, 30, 29}, []dimMap{half(1), half(3), half(3)}},
		{"random with fill", []int{3, 17, 19}, []int{3, 40, 37}, []dimMap{half(1), random, random}},
		{"one dim", []int{50}, []int{100}, []dimMap{half(2)}},
	}
	for _, tc := range tests {
		for _, esz := range []int{1, 2, 4, 8} {
			for _, threads := range []*workerPool{nil, pool} {
				t.Run(fmt.Sprintf("%s/esz=%d/threads=%d", tc.name, esz, threads.size()), func(t *testing.T) {
					var p mapCopy
					st := make([]int, len(tc.in))
					rowStrides(st, tc.in)
					p.reset(tc.out, st)
					for k, f := range tc.maps {
						m := p.mapOf(k)
						for o := range m {
							m[o] = f(o, tc.in[k])
						}
					}
					src := make([]byte, mulDims(tc.in)*esz)
					for i := range src {
						src[i] = byte(r.Uint32())
					}
					n := mulDims(tc.out) * esz
					want := make([]byte, n)
					got := make([]byte, n+16)
					for i := range got {
						got[i] = 0xA5
					}
					const fill = 0x0102030405060708
					p.copy(want, src, esz, fill)
					var pm parMap
					pm.copy(threads, &p, got[:n], src, esz, fill)
					if !bytes.Equal(got[:n], want) {
						t.Errorf("output differs from mapCopy's")
					}
					for i, b := range got[n:] {
						if b != 0xA5 {
							t.Fatalf("guard byte %d overwritten", i)
						}
					}
				})
			}
		}
	}
}
