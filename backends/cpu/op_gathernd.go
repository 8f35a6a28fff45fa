package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// gatherNDKernel is GatherND: each row of the int64 indices' last axis
// picks a slice of the data, within its batch item when batch_dims is
// set. The descriptor's rule (model.GatherNDAttrs) sets the output shape.
type gatherNDKernel struct {
	n  *model.Node
	b  int
	st []int
}

func (k *gatherNDKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	is := in[1].shape
	ind := in[1].i64()[:in[1].numel()]
	esz := x.dt.Size()
	q, b := len(is), k.b
	kk := is[q-1]
	batches := mulDims(x.shape[:b])
	rows := mulDims(is[b : q-1])
	slice := mulDims(x.shape[b+kk:]) * esz
	bstride := mulDims(x.shape[b:]) * esz
	st := growInts(&k.st, kk)
	for j := range st {
		st[j] = mulDims(x.shape[b+j+1:]) * esz
	}
	o := 0
	for bi := range batches {
		for ri := range rows {
			p := (bi*rows + ri) * kk
			off := bi * bstride
			for j, v := range ind[p : p+kk] {
				dim := int64(x.shape[b+j])
				if v < -dim || v >= dim {
					return shapeErr(k.n, "index %d out of range for dim %d", v, dim)
				}
				if v < 0 {
					v += dim
				}
				off += int(v) * st[j]
			}
			copy(y.data[o:o+slice], x.data[off:off+slice])
			o += slice
		}
	}
	return nil
}

func init() {
	register("GatherND", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if t := c.inType(1); t != payload.Int64 {
			return nil, c.unsupported("indices of type %s", t)
		}
		return &gatherNDKernel{n: c.n, b: int(c.rule.(*model.GatherNDAttrs).BatchDims)}, nil
	})
}
