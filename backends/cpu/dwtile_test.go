package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTransposeLanesMatchesGo checks transposeLanes and
// untransposeLanes (assembly where the CPU has it) against their Go
// twins on pixels of eight and sixteen lanes, lengths around the block
// of eight, full and partial channel counts, with guard cells around the
// outputs.
func TestTransposeLanesMatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(40, 41))
	const guard = 5
	for _, lanes := range []int{8, 16} {
		for _, n := range []int{1, 3, 7, 8, 9, 14, 15, 16, 17, 49, 196} {
			for _, k := range []int{lanes, 5, lanes - 1} {
				for _, stride := range []int{n, n + 3} {
					src := make([]float32, lanes*stride)
					for i := range src {
						src[i] = r.Float32()
					}
					got, want := make([]float32, lanes*n+2*guard), make([]float32, lanes*n+2*guard)
					for i := range got {
						got[i], want[i] = -1, -1
					}
					transposeLanes(got[guard:], src, lanes, stride, n, k)
					transposeGo(want[guard:], src, lanes, stride, n, k)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("transposeLanes lanes=%d n=%d k=%d stride=%d: element %d is %v, want %v", lanes, n, k, stride, i-guard, got[i], want[i])
						}
					}
					pix := make([]float32, lanes*n)
					for i := range pix {
						pix[i] = r.Float32()
					}
					got, want = make([]float32, lanes*stride+2*guard), make([]float32, lanes*stride+2*guard)
					for i := range got {
						got[i], want[i] = -1, -1
					}
					untransposeLanes(got[guard:], stride, pix, lanes, n, k)
					untransposeGo(want[guard:], stride, pix, lanes, n, k)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("untransposeLanes lanes=%d n=%d k=%d stride=%d: element %d is %v, want %v", lanes, n, k, stride, i-guard, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// dwTileInputs returns random taps for dwTile over rows of n pixels of
// lanes floats, step floats apart: the source, its row stride, the
// taps' offsets (whole pixels), weights and biases.
func dwTileInputs(r *rand.Rand, lanes, taps, n, rows, step int) (src []float32, sstride int, offs []int, w, bias []float32) {
	sstride = lanes * (n*step/lanes + 5)
	src = make([]float32, (rows-1)*sstride+n*step+lanes*40)
	for i := range src {
		src[i] = r.Float32()*2 - 1
	}
	offs, w, bias = make([]int, taps), make([]float32, lanes*taps), make([]float32, lanes)
	for i := range offs {
		offs[i] = lanes * r.IntN(38)
	}
	for i := range w {
		w[i] = r.Float32()*2 - 1
	}
	for i := range bias {
		bias[i] = r.Float32() - 0.5
	}
	return src, sstride, offs, w, bias
}

// TestDwTileMatchesGo checks dwTile (assembly where the CPU has it)
// against dwTileGo on pixels of eight and sixteen lanes, random taps,
// rows of 8 to 30 pixels, steps of one and two pixels, and guard cells
// around and between the output rows. The assembly fuses each product
// into its add, so the two agree to a few ulps, not bit for bit.
func TestDwTileMatchesGo(t *testing.T) {
	needAsm(t)
	r := rand.New(rand.NewPCG(42, 43))
	const guard = 8
	for _, lanes := range []int{8, 16} {
		for _, taps := range []int{1, 3, 9, 25} {
			for _, n := range []int{8, 9, 12, 15, 16, 17, 30} {
				for _, step := range []int{lanes, 2 * lanes} {
					rows := 3
					dstride := lanes*n + 16
					src, sstride, offs, w, bias := dwTileInputs(r, lanes, taps, n, rows, step)
					size := (rows-1)*dstride + lanes*n + 2*guard
					got, want := make([]float32, size), make([]float32, size)
					for i := range got {
						got[i], want[i] = 7, 7
					}
					dwTile(got[guard:], lanes, n, rows, dstride, src, sstride, step, offs, w, bias)
					dwTileGo(want[guard:], lanes, n, rows, dstride, src, sstride, step, offs, w, bias)
					for i := range got {
						if want[i] == 7 {
							if got[i] != 7 {
								t.Fatalf("lanes=%d taps=%d n=%d step=%d: guard cell %d written", lanes, taps, n, step, i-guard)
							}
							continue
						}
						if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*float64(taps) {
							t.Fatalf("lanes=%d taps=%d n=%d step=%d: element %d is %v, want %v", lanes, taps, n, step, i-guard, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestDwTileAllocs checks that a depthwise Conv on the tiles allocates
// nothing once its buffers have grown.
func TestDwTileAllocs(t *testing.T) {
	c := directCase{xs: []int{1, 24, 14, 14}, ws: []int{24, 1, 3, 3}, strides: []int64{2, 2}, pads: []int64{1, 1, 1, 1}, group: 24, bias: true}
	k, ins, out := buildDirectCase(t, c, 3, nil)
	out.data = alignedBytes(4 * out.numel())
	outs := []*tensor{out}
	if err := k.run(ins, outs); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(20, func() { _ = k.run(ins, outs) }); got != 0 {
		t.Errorf("allocations per call = %v, want 0", got)
	}
}
