package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// tileKernel is Tile: input 0 repeated repeats[k] times along each dim k.
type tileKernel struct {
	n   *model.Node
	ist []int
	p   stridedCopy
}

func (k *tileKernel) repeats(in []*tensor) ([]int64, error) {
	x, rep := in[0], optIn(in, 1)
	if rep == nil || rep.dt != payload.Int64 || len(rep.shape) != 1 || rep.shape[0] != len(x.shape) {
		return nil, shapeErr(k.n, "repeats must be a 1-D int64 tensor of %d values", len(x.shape))
	}
	v := rep.i64()[:rep.numel()]
	for _, r := range v {
		if r < 0 || r > int64(maxDim) {
			return nil, shapeErr(k.n, "repeats %v has a bad value", v)
		}
	}
	return v, nil
}

func (k *tileKernel) shape(in, out []*tensor) error {
	rep, err := k.repeats(in)
	if err != nil {
		return err
	}
	x := in[0]
	dims := out[0].resize(len(x.shape))
	for i, d := range x.shape {
		if d != 0 && int(rep[i]) > maxDim/d {
			return shapeErr(k.n, "output too large")
		}
		dims[i] = d * int(rep[i])
	}
	if mulDims(dims) < 0 {
		return shapeErr(k.n, "output shape %v overflows", dims)
	}
	return nil
}

func (k *tileKernel) run(in, out []*tensor) error {
	rep, err := k.repeats(in)
	if err != nil {
		return err
	}
	x := in[0]
	r := len(x.shape)
	k.ist = growInts(&k.ist, r)
	rowStrides(k.ist, x.shape)
	// Output viewed as [rep0, d0, rep1, d1, ...], reading with stride 0
	// along the repeat dims.
	dims, st := k.p.reset(2 * r)
	for i, d := range x.shape {
		dims[2*i], st[2*i] = int(rep[i]), 0
		dims[2*i+1], st[2*i+1] = d, k.ist[i]
	}
	k.p.copy(out[0].data, x.data, x.dt.Size(), 0)
	return nil
}

func init() {
	register("Tile", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if c.opset < 6 {
			return nil, c.unsupported("Tile-1's tiles and axis inputs (opset %d)", c.opset)
		}
		if c.inType(1) != payload.Int64 {
			return nil, c.unsupported("repeats of type %s", c.inType(1))
		}
		return &tileKernel{n: c.n}, nil
	})
}
