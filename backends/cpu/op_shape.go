package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// shapeKernel is Shape: input 0's dims as int64, from start to end (opset
// 15; negatives count from the end, both clamped to [0, rank]).
type shapeKernel struct {
	n          *model.Node
	start, end int64
	hasEnd     bool
}

// span returns the clamped [s, e) range of dims for rank r.
func (k *shapeKernel) span(r int) (int, int) {
	clamp := func(v int64) int {
		if v < 0 {
			v += int64(r)
		}
		return int(max(0, min(v, int64(r))))
	}
	s, e := clamp(k.start), r
	if k.hasEnd {
		e = clamp(k.end)
	}
	return s, max(s, e)
}

func (k *shapeKernel) shape(in, out []*tensor) error {
	s, e := k.span(len(in[0].shape))
	out[0].setShape(e - s)
	return nil
}

func (k *shapeKernel) run(in, out []*tensor) error {
	x := in[0]
	s, e := k.span(len(x.shape))
	y := out[0].i64()
	for i, d := range x.shape[s:e] {
		y[i] = int64(d)
	}
	return nil
}

// sizeKernel is Size: input 0's element count as an int64 scalar.
type sizeKernel struct{ n *model.Node }

func (k *sizeKernel) shape(in, out []*tensor) error {
	out[0].setShape()
	return nil
}

func (k *sizeKernel) run(in, out []*tensor) error {
	out[0].i64()[0] = int64(in[0].numel())
	return nil
}

func init() {
	register("Shape", func(c *buildCtx) (kernel, error) {
		if c.out[0].DType != payload.Int64 {
			return nil, c.invalid("output type %s, want int64", c.out[0].DType)
		}
		k := &shapeKernel{n: c.n}
		var err error
		if k.start, err = c.n.Int("start", 0); err != nil {
			return nil, err
		}
		k.hasEnd = c.n.Has("end")
		if k.end, err = c.n.Int("end", 0); err != nil {
			return nil, err
		}
		return k, nil
	})
	register("Size", func(c *buildCtx) (kernel, error) {
		if c.out[0].DType != payload.Int64 {
			return nil, c.invalid("output type %s, want int64", c.out[0].DType)
		}
		return &sizeKernel{n: c.n}, nil
	})
}
