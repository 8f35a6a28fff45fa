package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// lpNormKernel runs LpNormalization (model.LpNormAttrs), summing each
// vector's norm in float64. A vector whose norm is 0 becomes zeros, as
// in ONNX Runtime (the reference divides, giving NaN).
type lpNormKernel struct {
	geo softmaxKernel // only its geometry: one axis
	p   int64
	acc []float64
}

func (k *lpNormKernel) run(in, out []*tensor) error {
	outer, n, inner := k.geo.geometry(in[0].shape)
	k.acc = growFloats(k.acc, inner)
	switch k.geo.dt {
	case payload.Float32:
		lpNorm(k, out[0].f32(), in[0].f32(), outer, n, inner)
	case payload.Float64:
		lpNorm(k, out[0].f64(), in[0].f64(), outer, n, inner)
	}
	return nil
}

func lpNorm[T ewFloat](k *lpNormKernel, d, x []T, outer, n, inner int) {
	acc := k.acc[:inner]
	for o := range outer {
		base := o * n * inner
		clear(acc)
		for i := range n {
			for j, v := range x[base+i*inner : base+(i+1)*inner] {
				if k.p == 1 {
					acc[j] += math.Abs(float64(v))
				} else {
					acc[j] += float64(v) * float64(v)
				}
			}
		}
		if k.p == 2 {
			for j := range acc {
				acc[j] = math.Sqrt(acc[j])
			}
		}
		for i := range n {
			row := base + i*inner
			for j, v := range x[row : row+inner] {
				if acc[j] == 0 {
					d[row+j] = 0
				} else {
					d[row+j] = T(float64(v) / acc[j])
				}
			}
		}
	}
}

func init() {
	register("LpNormalization", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		a := c.rule.(*model.LpNormAttrs)
		return &lpNormKernel{geo: softmaxKernel{dt: c.inType(0), axis: a.Axis}, p: a.P}, nil
	})
}
