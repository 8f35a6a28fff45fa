package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/lintel-ml/lintel/internal/resize"
)

// BenchmarkResizeBilinear2x upsamples 64×256×256 to 64×512×512 (ISNet's
// largest Resize), half_pixel, on one thread: the two-axis pass in ONNX
// Runtime's order against two one-axis passes.
func BenchmarkResizeBilinear2x(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := randT(r, 1, 1, 64, 256, 256)
	y := &tensor{dt: x.dt, shape: []int{1, 64, 512, 512}}
	growData(y, 4*y.numel())
	k := &resizeKernel{mode: rsLinear, coord: resize.HalfPixel, sizesIdx: 3, roiIdx: -1, scalesIdx: -1}
	sizes := i64s(1, 64, 512, 512)
	in := []*tensor{x, nil, nil, sizes}
	for _, two := range []bool{true, false} {
		name := "one-axis"
		if two {
			name = "two-axis"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := k.plan(in, y.shape); err != nil {
					b.Fatal(err)
				}
				if two {
					if err := k.runInterp(x, y); err != nil {
						b.Fatal(err)
					}
				} else {
					resizeSeparable(k, x, y)
				}
			}
		})
	}
}

// resizeSeparable is runInterp without the two-axis pass, on one thread.
func resizeSeparable(k *resizeKernel, x, y *tensor) {
	r := len(x.shape)
	cur := append([]int(nil), x.shape...)
	src := x.f32()[:x.numel()]
	for d := r - 1; d >= 0; d-- {
		K, ident := k.taps(d, cur[d], y.shape[d])
		if ident {
			continue
		}
		outer, inner := mulDims(cur[:d]), mulDims(cur[d+1:])
		nin, nout := cur[d], y.shape[d]
		cur[d] = nout
		o := y.f32()
		if d == r-1 {
			k.bufA = growF32(&k.bufA, outer*nout*inner)
			o = k.bufA
		}
		resamplePass(o, src, nin, nout, inner, K, k.idx, k.w, 0, 0, outer*nout)
		src = o
	}
}

// BenchmarkResizeNearest2x upsamples 1×64×56×56 to 1×64×112×112 by
// nearest neighbour (asymmetric, floor), on one thread.
func BenchmarkResizeNearest2x(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := randT(r, 1, 1, 64, 56, 56)
	y := &tensor{dt: x.dt, shape: []int{1, 64, 112, 112}}
	growData(y, 4*y.numel())
	k := &resizeKernel{mode: rsNearest, coord: resize.Asymmetric, nearest: resize.Floor, sizesIdx: 3, roiIdx: -1, scalesIdx: -1}
	in := []*tensor{x, nil, nil, i64s(1, 64, 112, 112)}
	out := []*tensor{y}
	b.SetBytes(int64(4 * y.numel()))
	for b.Loop() {
		if err := k.run(in, out); err != nil {
			b.Fatal(err)
		}
	}
}
