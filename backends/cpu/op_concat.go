package cpu

import "github.com/lintel-ml/lintel/model"

// concatKernel is Concat: the inputs joined along axis, with the output
// shape the descriptor's rule (model.ConcatAttrs) computes.
type concatKernel struct {
	axis int64
}

func (k *concatKernel) run(in, out []*tensor) error {
	y := out[0]
	ax, _ := wrapAxis(k.axis, len(y.shape))
	esz := y.dt.Size()
	outer := mulDims(y.shape[:ax])
	inner := mulDims(y.shape[ax+1:]) * esz
	row := y.shape[ax] * inner
	off := 0
	for _, t := range in {
		n := t.shape[ax] * inner
		if n == 0 {
			continue
		}
		for o := 0; o < outer; o++ {
			copy(y.data[o*row+off:o*row+off+n], t.data[o*n:o*n+n])
		}
		off += n
	}
	return nil
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
		return &concatKernel{axis: c.rule.(*model.ConcatAttrs).Axis}, nil
	})
}
