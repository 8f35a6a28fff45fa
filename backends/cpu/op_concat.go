package cpu

import "github.com/lintel-ml/lintel/model"

// concatKernel is Concat: the inputs joined along axis, with the output
// shape the descriptor's rule (model.ConcatAttrs) computes.
type concatKernel struct {
	axis int64
	// pool splits the output's bytes; par and the call fields hold the
	// current call's split.
	pool      *workerPool
	par       parFor
	cin       []*tensor
	y         *tensor
	row, size int
	inner     int
}

// concatBlock is the bytes of output a concatenation part item copies.
const concatBlock = 4096

func (k *concatKernel) run(in, out []*tensor) error {
	y := out[0]
	ax, _ := wrapAxis(k.axis, len(y.shape))
	esz := y.dt.Size()
	k.inner = mulDims(y.shape[ax+1:]) * esz
	k.row = y.shape[ax] * k.inner
	k.size = mulDims(y.shape) * esz
	k.cin, k.y = in, y
	// A block of plain copies costs about half a simple loop's units.
	k.par.run(k.pool, k, (k.size+concatBlock-1)/concatBlock, concatBlock/8)
	k.cin, k.y = nil, nil
	return nil
}

// runRange copies the output bytes of blocks [lo, hi): every input's
// stretch of each outer row, cut to that range.
func (k *concatKernel) runRange(_, lo, hi int) {
	b0, b1 := lo*concatBlock, min(hi*concatBlock, k.size)
	ax, _ := wrapAxis(k.axis, len(k.y.shape))
	dst := k.y.data
	for o := b0 / k.row; o*k.row < b1; o++ {
		off := o * k.row
		for _, t := range k.cin {
			n := t.shape[ax] * k.inner
			s, e := max(off, b0), min(off+n, b1)
			if s < e {
				src := t.data[o*n : o*n+n]
				copy(dst[s:e], src[s-off:e-off])
			}
			off += n
		}
	}
}

func init() {
	register("Concat", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		for i := range c.n.Inputs {
			if c.inType(i) != c.inType(0) {
				return nil, c.invalid("inputs have types %s and %s", c.inType(0), c.inType(i))
			}
		}
		return &concatKernel{axis: c.rule.(*model.ConcatAttrs).Axis, pool: c.pool()}, nil
	})
}
