package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// col2ImKernel is Col2Im on float32 or float64: each column element is
// added to the image element its block offset and window place land on;
// places in the padding are dropped. The descriptor's rule
// (model.Col2ImAttrs) has checked the shapes.
type col2ImKernel struct {
	n   *model.Node
	w   model.Window
	buf []int64
	// per spatial dim: block size, window places, begin pad, stride and
	// dilation; then the two odometers.
	blk, places, pad, str, dil, kc, lc []int
}

func (k *col2ImKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	blk, _ := intValues(in[2], &k.buf)
	nd := len(blk)
	for _, p := range []*[]int{&k.blk, &k.places, &k.pad, &k.str, &k.dil, &k.kc, &k.lc} {
		*p = growInts(p, nd)
	}
	img := y.shape[2:]
	for i := 0; i < nd; i++ {
		k.blk[i] = int(blk[i])
		d, err := k.w.Dim(i, nd, img[i], k.blk[i])
		if err != nil {
			return shapeErr(k.n, "spatial dim %d: %v", i, err)
		}
		k.places[i], k.pad[i] = d.Out, d.PadBegin
		k.str[i], k.dil[i] = k.w.Stride(i), k.w.Dilation(i)
	}
	if x.dt == payload.Float64 {
		col2Im(k, x.f64(), y.f64(), x.shape, y.shape)
	} else {
		col2Im(k, x.f32(), y.f32(), x.shape, y.shape)
	}
	return nil
}

func col2Im[T float32 | float64](k *col2ImKernel, x, y []T, xs, ys []int) {
	clear(y)
	nd := len(k.blk)
	planes := ys[0] * ys[1]
	isz := mulDims(ys[2:])
	nb, L := mulDims(k.blk), xs[2]
	if isz == 0 || L == 0 {
		return
	}
	for p := 0; p < planes; p++ {
		col := x[p*nb*L : (p+1)*nb*L]
		im := y[p*isz : (p+1)*isz]
		for i := range k.kc {
			k.kc[i] = 0
		}
		for b := 0; b < nb; b++ {
			row := col[b*L : (b+1)*L]
			for i := range k.lc {
				k.lc[i] = 0
			}
			for l := 0; l < L; l++ {
				off, ok := 0, true
				for i := 0; i < nd; i++ {
					q := k.lc[i]*k.str[i] - k.pad[i] + k.kc[i]*k.dil[i]
					if q < 0 || q >= ys[2+i] {
						ok = false
						break
					}
					off = off*ys[2+i] + q
				}
				if ok {
					im[off] += row[l]
				}
				odometer(k.lc, k.places)
			}
			odometer(k.kc, k.blk)
		}
	}
}

// odometer advances the multi-index ctr within dims, row-major, wrapping
// to zeros after the last.
func odometer(ctr, dims []int) {
	for i := len(ctr) - 1; i >= 0; i-- {
		ctr[i]++
		if ctr[i] < dims[i] {
			return
		}
		ctr[i] = 0
	}
}

func init() {
	register("Col2Im", func(c *buildCtx) (kernel, error) {
		if t := c.inType(0); t != payload.Float32 && t != payload.Float64 {
			return nil, c.unsupported("element type %s (supported: float32, float64)", t)
		}
		if c.inType(1) != payload.Int64 || c.inType(2) != payload.Int64 {
			return nil, c.unsupported("image_shape of type %s and block_shape of type %s (supported: int64)", c.inType(1), c.inType(2))
		}
		return &col2ImKernel{n: c.n, w: c.rule.(*model.Col2ImAttrs).Window}, nil
	})
}
