package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// tileKernel is Tile from opset 6: input 0 repeated repeats[k] times
// along each dim k. The descriptor's rule (model.TileAttrs) sets the
// output shape and checks the repeats.
type tileKernel struct {
	ist []int
	p   stridedCopy
}

func (k *tileKernel) run(in, out []*tensor) error {
	rep := in[1].i64()
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
		if c.rule.(*model.TileAttrs).Legacy {
			return nil, c.unsupported("Tile-1's tiles and axis inputs (opset %d)", c.opset)
		}
		if c.inType(1) != payload.Int64 {
			return nil, c.unsupported("repeats of type %s", c.inType(1))
		}
		return &tileKernel{}, nil
	})
}
