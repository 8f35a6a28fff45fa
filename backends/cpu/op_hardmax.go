package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// hardmaxKernel runs Hardmax (model.SoftmaxAttrs): 1 at the first
// maximum of each row, 0 elsewhere, with Softmax's rows (coerced to 2-D
// at the axis before opset 13, one axis from then on). A NaN counts as
// the maximum, as NumPy's argmax does.
type hardmaxKernel struct {
	geo softmaxKernel // only its geometry
}

func (k *hardmaxKernel) run(in, out []*tensor) error {
	outer, n, inner := k.geo.geometry(in[0].shape)
	switch k.geo.dt {
	case payload.Float32:
		hardmax(out[0].f32(), in[0].f32(), outer, n, inner)
	case payload.Float64:
		hardmax(out[0].f64(), in[0].f64(), outer, n, inner)
	}
	return nil
}

func hardmax[T ewFloat](d, x []T, outer, n, inner int) {
	clear(d)
	if n == 0 {
		return
	}
	for o := range outer {
		base := o * n * inner
		for j := range inner {
			best, bi := x[base+j], 0
			for i := 1; i < n && best == best; i++ {
				if v := x[base+i*inner+j]; v > best || v != v {
					best, bi = v, i
				}
			}
			d[base+bi*inner+j] = 1
		}
	}
}

func init() {
	register("Hardmax", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		a := c.rule.(*model.SoftmaxAttrs)
		return &hardmaxKernel{geo: softmaxKernel{dt: c.inType(0), axis: a.Axis, coerce: a.Coerce}}, nil
	})
}
