package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// maxUnpoolKernel is MaxUnpool on every element type, as ONNX's
// reference computes it: each X element is written at the flat index its
// I element gives into the unpooled shape ((Di-1)·stride + kernel -
// pads); an output_shape larger than that holds the unpooled tensor at
// its start, zeros after it.
type maxUnpoolKernel struct {
	n *model.Node
	w model.Window
	// inf is the unpooled shape; off maps a flat index into it to one
	// into the output.
	inf []int
}

func (k *maxUnpoolKernel) shape(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	k.inf = growInts(&k.inf, r)
	k.inf[0], k.inf[1] = x.shape[0], x.shape[1]
	nd := r - 2
	for i := 0; i < nd; i++ {
		pb, pe := k.w.Pad(i, nd)
		if x.shape[2+i] > 0 && k.w.Stride(i) > (1<<40)/x.shape[2+i] {
			return shapeErr(k.n, "spatial dim %d: the unpooled size overflows", i)
		}
		k.inf[2+i] = (x.shape[2+i]-1)*k.w.Stride(i) + int(k.w.KernelShape[i]) - pb - pe
		if k.inf[2+i] < 0 || k.inf[2+i] > y.shape[2+i] {
			return shapeErr(k.n, "output shape %v is smaller than the unpooled shape %v", y.shape, k.inf)
		}
	}
	return nil
}

func (k *maxUnpoolKernel) run(in, out []*tensor) error {
	x, ind, y := in[0], in[1], out[0]
	idx := ind.i64()[:ind.numel()]
	total := int64(mulDims(k.inf))
	for _, v := range idx {
		if v < 0 || v >= total {
			return shapeErr(k.n, "index %d out of range for an unpooled shape %v", v, k.inf)
		}
	}
	clear(y.data)
	same := sameShape(k.inf, y.shape)
	switch x.dt.Size() {
	case 1:
		unpoolWords(wordsOf[uint8](y.data), wordsOf[uint8](x.data), idx, k.inf, y.shape, same)
	case 2:
		unpoolWords(wordsOf[uint16](y.data), wordsOf[uint16](x.data), idx, k.inf, y.shape, same)
	case 4:
		unpoolWords(wordsOf[uint32](y.data), wordsOf[uint32](x.data), idx, k.inf, y.shape, same)
	case 8:
		unpoolWords(wordsOf[uint64](y.data), wordsOf[uint64](x.data), idx, k.inf, y.shape, same)
	}
	return nil
}

// unpoolWords sets dst at the place of flat index idx[i] of shape inf to
// src[i]; dst has shape ys, inf's dims each at most ys's.
func unpoolWords[W word](dst, src []W, idx []int64, inf, ys []int, same bool) {
	for i, v := range idx {
		o := int(v)
		if !same {
			o = 0
			stride, rest := 1, int(v)
			for d := len(inf) - 1; d >= 0; d-- {
				o += (rest % inf[d]) * stride
				rest /= inf[d]
				stride *= ys[d]
			}
		}
		dst[o] = src[i]
	}
}

func init() {
	register("MaxUnpool", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if t := c.inType(1); t != payload.Int64 {
			return nil, c.unsupported("I of type %s (supported: int64)", t)
		}
		if t := c.inType(2); t != payload.Undefined && t != payload.Int64 {
			return nil, c.unsupported("output_shape of type %s (supported: int64)", t)
		}
		return &maxUnpoolKernel{n: c.n, w: c.rule.(*model.MaxUnpoolAttrs).Window}, nil
	})
}
