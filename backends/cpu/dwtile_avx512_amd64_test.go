//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/model"
)

// needWideDw skips a test where the sixteen-lane depthwise kernel cannot
// run: it is compared with the eight-lane AVX2 one.
func needWideDw(t *testing.T) {
	t.Helper()
	if !hasAVX512 || !hasAVX2FMA {
		t.Skip("this CPU has no AVX-512: only the eight-lane kernels run here")
	}
}

// TestDwTile16MatchesAVX2 checks the sixteen-lane dwTile against the
// eight-lane AVX2 one bit for bit: the sixteen-lane tile is split into
// its low and high eight channels, which the AVX2 kernel sums apart.
// Guard cells around and between the output rows must stay untouched.
func TestDwTile16MatchesAVX2(t *testing.T) {
	needWideDw(t)
	r := rand.New(rand.NewPCG(44, 45))
	const guard = 16
	for _, taps := range []int{1, 9, 25, 49} {
		for _, n := range []int{8, 9, 13, 15, 16, 17, 28, 31} {
			for _, step := range []int{16, 32} {
				rows := 3
				dstride := 16*n + 32
				src, sstride, offs, w, bias := dwTileInputs(r, 16, taps, n, rows, step)
				size := (rows-1)*dstride + 16*n + 2*guard
				got := make([]float32, size)
				for i := range got {
					got[i] = 7
				}
				dwTile(got[guard:], 16, n, rows, dstride, src, sstride, step, offs, w, bias)
				// Each half of the tile as pixels of eight.
				for h := range 2 {
					half := make([]float32, len(src)/2)
					for j := range half {
						half[j] = src[16*(j/8)+8*h+j%8]
					}
					hw, hb, ho := make([]float32, 8*taps), bias[8*h:8*h+8], make([]int, taps)
					for j := range hw {
						hw[j] = w[16*(j/8)+8*h+j%8]
					}
					for j, o := range offs {
						ho[j] = o / 2
					}
					want := make([]float32, (rows-1)*dstride/2+8*n)
					dwTile(want, 8, n, rows, dstride/2, half, sstride/2, step/2, ho, hw, hb)
					for row := range rows {
						for i := range n {
							for c := range 8 {
								g, wv := got[guard+row*dstride+16*i+8*h+c], want[row*dstride/2+8*i+c]
								if math.Float32bits(g) != math.Float32bits(wv) {
									t.Fatalf("taps=%d n=%d step=%d: row %d pixel %d channel %d is %v, want %v", taps, n, step, row, i, 8*h+c, g, wv)
								}
							}
						}
					}
				}
				for i, v := range got {
					j := i - guard
					inRow := j >= 0 && j/dstride < rows && j%dstride < 16*n
					if !inRow && v != 7 {
						t.Fatalf("taps=%d n=%d step=%d: guard cell %d written", taps, n, step, j)
					}
				}
			}
		}
	}
}

// TestDepthwiseTileWideMatchesNarrow runs depthwise Convs on the tiles
// with sixteen-lane blocks and with eight-lane ones and checks them bit
// for bit (with guard cells around the output): channel counts with and
// without a block of eight and a partial block after the sixteens,
// strides 1 and 2, dilations 1 and 2, kernels 3, 5 and 7, odd and small
// widths (fewer than 8 and than 16 outputs a row), with and without an
// activation, on one thread and two.
func TestDepthwiseTileWideMatchesNarrow(t *testing.T) {
	needWideDw(t)
	defer func(w bool) { dwTileWide = w }(dwTileWide)
	pool := newWorkerPool(2)
	defer pool.close()
	type shape struct{ c, h, w, k, s, d int }
	shapes := []shape{
		{16, 14, 14, 3, 1, 1}, {32, 14, 14, 5, 2, 1}, {24, 13, 11, 5, 2, 2}, {20, 9, 7, 3, 1, 1},
		{28, 15, 17, 7, 1, 1}, {40, 7, 5, 3, 2, 1}, {48, 28, 28, 7, 1, 2}, {16, 5, 30, 5, 1, 2},
		{19, 11, 11, 3, 2, 2}, {36, 21, 23, 7, 2, 1}, {64, 4, 4, 3, 1, 1},
	}
	acts := []string{"", model.ActRelu, model.ActHardSwish}
	for i, sh := range shapes {
		p := int64(sh.d * (sh.k - 1) / 2)
		c := directCase{xs: []int{1 + i%2, sh.c, sh.h, sh.w}, ws: []int{sh.c, 1, sh.k, sh.k},
			strides: []int64{int64(sh.s), int64(sh.s)}, dils: []int64{int64(sh.d), int64(sh.d)},
			pads: []int64{p, p + int64(i%2), p, p}, group: sh.c, bias: i%3 != 2, act: acts[i%3]}
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			var res [2][]float32
			for j, wide := range []bool{true, false} {
				dwTileWide = wide
				for _, pl := range []*workerPool{nil, pool} {
					k, ins, out := buildDirectCase(t, c, uint64(i+1), pl)
					if !dwTileFits(&k.g, 1) {
						t.Fatalf("not taken by the tiles")
					}
					got := runGuarded(t, k, ins, out)
					if res[j] == nil {
						res[j] = got
						continue
					}
					for e := range got {
						if math.Float32bits(got[e]) != math.Float32bits(res[j][e]) {
							t.Fatalf("wide=%t: element %d: %v on two threads, %v on one", wide, e, got[e], res[j][e])
						}
					}
				}
			}
			for e := range res[0] {
				if math.Float32bits(res[0][e]) != math.Float32bits(res[1][e]) {
					t.Fatalf("element %d: %v on sixteen lanes, %v on eight", e, res[0][e], res[1][e])
				}
			}
		})
	}
}
