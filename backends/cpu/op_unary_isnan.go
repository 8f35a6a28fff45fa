package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// isKernel runs IsNaN and IsInf (with detect_negative and detect_positive)
// on floats; the output is bool.
type isKernel struct {
	n        *model.Node
	dt       payload.DType
	nan      bool
	neg, pos bool
}

func (k *isKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		isRun(k, out[0].bools(), in[0].f32())
	case payload.Float64:
		isRun(k, out[0].bools(), in[0].f64())
	}
	return nil
}

func isRun[T ewFloat](k *isKernel, d []bool, x []T) {
	x = x[:len(d)]
	if k.nan {
		for i, v := range x {
			d[i] = v != v
		}
		return
	}
	for i, v := range x {
		d[i] = k.pos && float64(v) > math.MaxFloat64 || k.neg && float64(v) < -math.MaxFloat64
	}
}

func init() {
	b := func(nan bool) builder {
		return viaF32(func(c *buildCtx) (kernel, error) {
			if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
				return nil, err
			}
			k := &isKernel{n: c.n, dt: c.inType(0), nan: nan}
			if !nan {
				a := c.rule.(*model.IsInfAttrs)
				k.neg, k.pos = a.Negative, a.Positive
			}
			return k, nil
		})
	}
	register("IsNaN", b(true))
	register("IsInf", b(false))
}
