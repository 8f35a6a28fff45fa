package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// expandKernel runs Expand: it broadcasts input 0 to the broadcast of its
// shape and the int64 shape input.
type expandKernel struct {
	n  *model.Node
	sz int
	it bcastIter
}

func (k *expandKernel) shape(in, out []*tensor) error {
	if in[1] == nil || len(in[1].shape) != 1 {
		return shapeErr(k.n, "the shape input must be a 1-D tensor")
	}
	s := in[1].i64()[:in[1].shape[0]]
	x := in[0].shape
	r := max(len(x), len(s))
	d := out[0].resize(r)
	for i := range d {
		d[i] = 1
	}
	for j, v := range s {
		if v < 0 {
			return shapeErr(k.n, "negative dimension %d in shape %v", v, s)
		}
		d[r-len(s)+j] = int(v)
	}
	if !broadcastInto(d, x) {
		return shapeErr(k.n, "input shape %v does not broadcast to %v", x, s)
	}
	return nil
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
		if c.n.NumInputs() != 2 {
			return nil, c.invalid("needs two inputs")
		}
		dt := c.inType(0)
		if !elemSizeOK(dt) {
			return nil, c.unsupported("element type %s", dt)
		}
		if c.inType(1) != payload.Int64 {
			return nil, c.invalid("shape input is %s, want int64", c.inType(1))
		}
		return &expandKernel{n: c.n, sz: dt.Size()}, nil
	})
}
