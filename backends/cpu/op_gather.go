package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// gatherKernel is Gather: slices of input 0 along axis picked by the
// int32 or int64 indices of input 1 (negative ones count from the end).
// The descriptor's rule (model.GatherAttrs) sets the output shape.
type gatherKernel struct {
	n    *model.Node
	axis int64
	buf  []int64
	// pool splits the copied slices; par and the call fields hold the
	// current call's split.
	pool       *workerPool
	par        parFor
	x, y       *tensor
	ind        []int64
	inner, row int
	dim        int64
}

func (k *gatherKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	ind, _ := intValues(in[1], &k.buf)
	ax, _ := wrapAxis(k.axis, len(x.shape))
	esz := x.dt.Size()
	outer := mulDims(x.shape[:ax])
	dim := int64(x.shape[ax])
	inner := mulDims(x.shape[ax+1:]) * esz
	row := x.shape[ax] * inner
	for _, v := range ind {
		if v < -dim || v >= dim {
			return shapeErr(k.n, "index %d out of range for dim %d", v, dim)
		}
	}
	if inner == 0 || len(ind) == 0 {
		return nil
	}
	k.x, k.y, k.ind, k.inner, k.row, k.dim = x, y, ind, inner, row, dim
	k.par.run(k.pool, k, outer*len(ind), max(inner/8, 4))
	k.x, k.y, k.ind = nil, nil, nil
	return nil
}

// runRange copies slices [lo, hi) of the output, numbered outer major.
func (k *gatherKernel) runRange(_, lo, hi int) {
	inner, n := k.inner, len(k.ind)
	for u := lo; u < hi; u++ {
		b, v := u/n, k.ind[u%n]
		if v < 0 {
			v += k.dim
		}
		s := b*k.row + int(v)*inner
		copy(k.y.data[u*inner:u*inner+inner], k.x.data[s:s+inner])
	}
}

// gatherElementsKernel is GatherElements: out[i] = x[i with i[axis]
// replaced by indices[i]]. The descriptor's rule (model.GatherAttrs)
// sets the output shape.
type gatherElementsKernel struct {
	n    *model.Node
	axis int64
	buf  []int64
	ctr  []int
	st   []int
}

func (k *gatherElementsKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	ind, _ := intValues(in[1], &k.buf)
	r := len(x.shape)
	ax, _ := wrapAxis(k.axis, r)
	dim := int64(x.shape[ax])
	for _, v := range ind {
		if v < -dim || v >= dim {
			return shapeErr(k.n, "index %d out of range for dim %d", v, dim)
		}
	}
	if len(ind) == 0 {
		return nil
	}
	k.st = growInts(&k.st, r)
	rowStrides(k.st, x.shape)
	k.ctr = growInts(&k.ctr, r)
	switch x.dt.Size() {
	case 1:
		gatherElems(wordsOf[uint8](y.data), wordsOf[uint8](x.data), ind, in[1].shape, k.st, k.ctr, ax, dim)
	case 2:
		gatherElems(wordsOf[uint16](y.data), wordsOf[uint16](x.data), ind, in[1].shape, k.st, k.ctr, ax, dim)
	case 4:
		gatherElems(wordsOf[uint32](y.data), wordsOf[uint32](x.data), ind, in[1].shape, k.st, k.ctr, ax, dim)
	case 8:
		gatherElems(wordsOf[uint64](y.data), wordsOf[uint64](x.data), ind, in[1].shape, k.st, k.ctr, ax, dim)
	}
	return nil
}

func gatherElems[W word](dst, src []W, ind []int64, ishape, st, ctr []int, ax int, dim int64) {
	r := len(ishape)
	for i := range ctr {
		ctr[i] = 0
	}
	base := 0 // Σ ctr[k]*st[k] over k != ax
	last := r - 1
	n := ishape[last]
	for o := 0; o < len(ind); o += n {
		for j := 0; j < n; j++ {
			v := ind[o+j]
			if v < 0 {
				v += dim
			}
			s := base + int(v)*st[ax]
			if last != ax {
				s += j * st[last]
			}
			dst[o+j] = src[s]
		}
		for k := last - 1; k >= 0; k-- {
			ctr[k]++
			if k != ax {
				base += st[k]
			}
			if ctr[k] < ishape[k] {
				break
			}
			if k != ax {
				base -= st[k] * ishape[k]
			}
			ctr[k] = 0
		}
	}
}

func init() {
	gb := func(elements bool) builder {
		return func(c *buildCtx) (kernel, error) {
			if err := c.needMovable(); err != nil {
				return nil, err
			}
			if t := c.inType(1); t != payload.Int32 && t != payload.Int64 {
				return nil, c.unsupported("indices of type %s", t)
			}
			a := c.rule.(*model.GatherAttrs).Axis
			if elements {
				return &gatherElementsKernel{n: c.n, axis: a}, nil
			}
			return &gatherKernel{n: c.n, axis: a, pool: c.pool()}, nil
		}
	}
	register("Gather", gb(false))
	register("GatherElements", gb(true))
}
