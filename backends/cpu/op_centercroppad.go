package cpu

// centerCropPadKernel is CenterCropPad on every element type: an index
// map per dim (mapCopy) reads input index o + (in-out)/2 for output index
// o, or zero outside the input.
type centerCropPadKernel struct {
	st []int
	p  mapCopy
}

func (k *centerCropPadKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	k.st = growInts(&k.st, r)
	rowStrides(k.st, x.shape)
	k.p.reset(y.shape, k.st)
	for d := 0; d < r; d++ {
		n, m := x.shape[d], y.shape[d]
		// Cropping starts at floor((n-m)/2), padding at floor((m-n)/2).
		off := (n - m) / 2
		if m > n {
			off = -((m - n) / 2)
		}
		mp := k.p.mapOf(d)
		for o := range mp {
			i := o + off
			if i < 0 || i >= n {
				i = -1
			}
			mp[o] = i
		}
	}
	k.p.copy(y.data, x.data, x.dt.Size(), 0)
	return nil
}

func init() {
	register("CenterCropPad", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if !c.intInputOK(1, true) {
			return nil, c.unsupported("shape of type %s", c.inType(1))
		}
		return &centerCropPadKernel{}, nil
	})
}
