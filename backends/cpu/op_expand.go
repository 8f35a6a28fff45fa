package cpu

import "github.com/lintel-ml/lintel/payload"

// expandKernel runs Expand: it broadcasts input 0 to the broadcast of its
// shape and the int64 shape input, which the descriptor's rule
// (model.ExpandAttrs) computes.
type expandKernel struct {
	sz int
	it bcastIter
}

func (k *expandKernel) run(in, out []*tensor) error {
	k.it.init(out[0].shape, in[0].shape)
	switch k.sz {
	case 1:
		copyBroadcast(&k.it, out[0].u8(), in[0].u8())
	case 2:
		copyBroadcast(&k.it, elems[uint16](out[0]), elems[uint16](in[0]))
	case 4:
		copyBroadcast(&k.it, elems[uint32](out[0]), elems[uint32](in[0]))
	case 8:
		copyBroadcast(&k.it, elems[uint64](out[0]), elems[uint64](in[0]))
	}
	return nil
}

func init() {
	register("Expand", func(c *buildCtx) (kernel, error) {
		dt := c.inType(0)
		if !elemSizeOK(dt) {
			return nil, c.unsupported("element type %s", dt)
		}
		if c.inType(1) != payload.Int64 {
			return nil, c.invalid("shape input is %s, want int64", c.inType(1))
		}
		return &expandKernel{sz: dt.Size()}, nil
	})
}
