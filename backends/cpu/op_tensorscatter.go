package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// tensorScatterKernel is TensorScatter: the cache copied to the output
// with the update's rows written along the sequence axis from each batch
// item's write index. The descriptor's rule (model.TensorScatterAttrs)
// sets the output shape and checks the inputs'.
type tensorScatterKernel struct {
	n *model.Node
	a model.TensorScatterAttrs
}

func (k *tensorScatterKernel) run(in, out []*tensor) error {
	x, u, y := in[0], in[1], out[0]
	copy(y.data, x.data)
	r := len(x.shape)
	ax, _ := wrapAxis(k.a.Axis, r)
	esz := x.dt.Size()
	batch, per := x.shape[0], mulDims(x.shape[1:ax]) // prefix = batch * per
	maxSeq, seq := x.shape[ax], u.shape[ax]
	row := mulDims(x.shape[ax+1:]) * esz
	var wi []int64
	if w := optIn(in, 2); w != nil {
		wi = w.i64()[:w.numel()]
		if len(wi) != batch {
			return shapeErr(k.n, "write_indices have %d elements, the batch %d", len(wi), batch)
		}
		for _, v := range wi {
			if v < 0 || !k.a.Circular && v > int64(maxSeq-seq) {
				return shapeErr(k.n, "write index %d: %d rows do not fit in %d", v, seq, maxSeq)
			}
		}
	}
	if row == 0 || seq == 0 {
		return nil
	}
	for b := range batch {
		start := 0
		if wi != nil {
			start = int(wi[b] % int64(maxSeq))
		}
		for p := b * per; p < (b+1)*per; p++ {
			for s := range seq {
				pos := start + s
				if pos >= maxSeq {
					pos -= maxSeq
				}
				d := (p*maxSeq + pos) * row
				o := (p*seq + s) * row
				copy(y.data[d:d+row], u.data[o:o+row])
			}
		}
	}
	return nil
}

func init() {
	register("TensorScatter", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if c.inType(1) != c.inType(0) {
			return nil, c.invalid("the update has element type %s, the cache %s", c.inType(1), c.inType(0))
		}
		if t := c.inType(2); t != payload.Undefined && t != payload.Int64 {
			return nil, c.unsupported("write_indices of type %s", t)
		}
		return &tensorScatterKernel{n: c.n, a: *c.rule.(*model.TensorScatterAttrs)}, nil
	})
}
