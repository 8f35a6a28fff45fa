package cpu

import "github.com/lintel-ml/lintel/model"

// splitKernel is Split: input 0 cut along axis into the outputs, whose
// shapes the descriptor's rule (model.SplitAttrs) computes.
type splitKernel struct {
	axis int64
}

func (k *splitKernel) run(in, out []*tensor) error {
	x := in[0]
	ax, _ := wrapAxis(k.axis, len(x.shape))
	esz := x.dt.Size()
	outer := mulDims(x.shape[:ax])
	inner := mulDims(x.shape[ax+1:]) * esz
	row := x.shape[ax] * inner
	off := 0
	for _, y := range out {
		n := y.shape[ax] * inner
		if n == 0 {
			continue
		}
		for o := 0; o < outer; o++ {
			copy(y.data[o*n:o*n+n], x.data[o*row+off:o*row+off+n])
		}
		off += n
	}
	return nil
}

func init() {
	register("Split", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		if !c.intInputOK(1, false) {
			return nil, c.unsupported("split input of type %s", c.inType(1))
		}
		if len(c.n.Outputs) == 0 {
			return nil, c.invalid("no outputs")
		}
		for _, o := range c.n.Outputs {
			if o == "" {
				return nil, c.unsupported("omitted outputs")
			}
		}
		return &splitKernel{axis: c.rule.(*model.SplitAttrs).Axis}, nil
	})
}
