package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// shapeKernel is Shape: input 0's dims as int64, the span the
// descriptor's attributes (model.ShapeAttrs) select.
type shapeKernel struct {
	attr *model.ShapeAttrs
}

func (k *shapeKernel) run(in, out []*tensor) error {
	x := in[0]
	s, e := k.attr.Span(len(x.shape))
	y := out[0].i64()
	for i, d := range x.shape[s:e] {
		y[i] = int64(d)
	}
	return nil
}

// sizeKernel is Size: input 0's element count as an int64 scalar.
type sizeKernel struct{}

func (k *sizeKernel) run(in, out []*tensor) error {
	out[0].i64()[0] = int64(in[0].numel())
	return nil
}

func init() {
	register("Shape", func(c *buildCtx) (kernel, error) {
		if c.out[0].DType != payload.Int64 {
			return nil, c.invalid("output type %s, want int64", c.out[0].DType)
		}
		return &shapeKernel{attr: c.rule.(*model.ShapeAttrs)}, nil
	})
	register("Size", func(c *buildCtx) (kernel, error) {
		if c.out[0].DType != payload.Int64 {
			return nil, c.invalid("output type %s, want int64", c.out[0].DType)
		}
		return &sizeKernel{}, nil
	})
}
