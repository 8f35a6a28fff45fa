package cpu

import (
	"math"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// swigluKernel runs SwiGLU (opset 28): y = a·sigmoid(alpha·a)·b
// elementwise over A and B of one shape, which the descriptor's rule
// (model.SwiGLUAttrs) has checked. float16 computes in float32.
type swigluKernel struct {
	dt    payload.DType
	alpha float32
}

func (k *swigluKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		d, a, b := out[0].f32(), in[0].f32(), in[1].f32()
		a, b = a[:len(d)], b[:len(d)]
		for i, v := range a {
			d[i] = v / (1 + float32(math.Exp(float64(-k.alpha*v)))) * b[i]
		}
	case payload.Float64:
		d, a, b := out[0].f64(), in[0].f64(), in[1].f64()
		a, b = a[:len(d)], b[:len(d)]
		al := float64(k.alpha)
		for i, v := range a {
			d[i] = v / (1 + math.Exp(-al*v)) * b[i]
		}
	case payload.Float16:
		d := elems[float16.Float16](out[0])
		a, b := elems[float16.Float16](in[0])[:len(d)], elems[float16.Float16](in[1])[:len(d)]
		for i, h := range a {
			v := h.Float32()
			d[i] = float16.Fromfloat32(v / (1 + float32(math.Exp(float64(-k.alpha*v)))) * b[i].Float32())
		}
	}
	return nil
}

func init() {
	register("SwiGLU", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64, payload.Float16); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		if c.inType(1) != dt {
			return nil, c.invalid("B is %s, A is %s", c.inType(1), dt)
		}
		return &swigluKernel{dt: dt, alpha: c.rule.(*model.SwiGLUAttrs).Alpha}, nil
	})
}
