package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// lrnKernel runs LRN (model.LRNAttrs), summing squares in float64.
type lrnKernel struct {
	a  *model.LRNAttrs
	dt payload.DType
}

func (k *lrnKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		lrn(k.a, out[0].f32(), in[0].f32(), in[0].shape)
	case payload.Float64:
		lrn(k.a, out[0].f64(), in[0].f64(), in[0].shape)
	}
	return nil
}

func lrn[T ewFloat](a *model.LRNAttrs, d, x []T, s []int) {
	nb, nc := s[0], s[1]
	sp := mulDims(s[2:])
	lo := int((a.Size - 1) / 2)
	hi := int(a.Size) - 1 - lo // ⌈(size-1)/2⌉
	scale := float64(a.Alpha) / float64(a.Size)
	bias, beta := float64(a.Bias), float64(a.Beta)
	for n := range nb {
		base := n * nc * sp
		for c := range nc {
			c0, c1 := max(0, c-lo), min(nc-1, c+hi)
			for j := range sp {
				var sq float64
				for q := c0; q <= c1; q++ {
					v := float64(x[base+q*sp+j])
					sq += v * v
				}
				i := base + c*sp + j
				d[i] = T(float64(x[i]) / math.Pow(bias+scale*sq, beta))
			}
		}
	}
}

func init() {
	register("LRN", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		return &lrnKernel{a: c.rule.(*model.LRNAttrs), dt: c.inType(0)}, nil
	})
}
