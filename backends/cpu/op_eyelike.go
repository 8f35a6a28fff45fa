package cpu

import (
	"github.com/lintel-ml/lintel/model"
)

// eyeLikeKernel is EyeLike: ones on the diagonal shifted by k of a 2-D
// output shaped like the input, zeros elsewhere. The descriptor's rule
// (model.EyeLikeAttrs) sets the output's shape and type.
type eyeLikeKernel struct {
	k   int64
	one uint64 // the bits of 1 in the output's element type
}

func (k *eyeLikeKernel) run(in, out []*tensor) error {
	y := out[0]
	clear(y.data)
	rows, cols := y.shape[0], y.shape[1]
	esz := y.dt.Size()
	for i := range rows {
		j := int64(i) + k.k
		if j < 0 || j >= int64(cols) {
			continue
		}
		p := (i*cols + int(j)) * esz
		fillBytes(y.data[p:p+esz], esz, k.one)
	}
	return nil
}

func init() {
	register("EyeLike", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.EyeLikeAttrs)
		dt := a.DType
		if dt == 0 {
			dt = c.inType(0)
		}
		one, ok := floatBits(dt, 1)
		if !ok || !movable(dt) {
			return nil, c.unsupported("output element type %s", dt)
		}
		return &eyeLikeKernel{k: a.K, one: one}, nil
	})
}
