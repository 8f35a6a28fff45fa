package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// instanceNormKernel runs InstanceNormalization: each (N, C) plane is
// normalised by its own mean and variance (accumulated in float64), then
// scaled and shifted per channel.
type instanceNormKernel struct {
	dt      payload.DType
	eps     float64
	c, size int
	planes  int
	// pool splits the planes; par and the call fields hold the current
	// call's split.
	pool      *workerPool
	par       parFor
	cin, cout []*tensor
}

func init() {
	register("InstanceNormalization", viaF32(buildInstanceNorm))
}

func buildInstanceNorm(c *buildCtx) (kernel, error) {
	if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
		return nil, err
	}
	if c.inType(1) != c.inType(0) || c.inType(2) != c.inType(0) {
		return nil, c.invalid("inputs of mixed element types %s, %s, %s", c.inType(0), c.inType(1), c.inType(2))
	}
	eps := c.rule.(*model.InstanceNormAttrs).Epsilon
	return &instanceNormKernel{dt: c.inType(0), eps: float64(eps), pool: c.pool()}, nil
}

func (k *instanceNormKernel) shape(in, out []*tensor) error {
	k.c, k.planes, k.size = channelGeometry(in[0].shape)
	return nil
}

func (k *instanceNormKernel) run(in, out []*tensor) error {
	if k.size == 0 {
		return nil
	}
	k.cin, k.cout = in, out
	k.par.run(k.pool, k, k.planes, 6*k.size)
	k.cin, k.cout = nil, nil
	return nil
}

// runRange normalises planes [lo, hi) of the current call.
func (k *instanceNormKernel) runRange(_, lo, hi int) {
	in, out := k.cin, k.cout
	switch k.dt {
	case payload.Float32:
		instanceNormRun(k, in[0].f32(), in[1].f32(), in[2].f32(), out[0].f32(), lo, hi)
	case payload.Float64:
		instanceNormRun(k, in[0].f64(), in[1].f64(), in[2].f64(), out[0].f64(), lo, hi)
	}
}

// instanceNormRun normalises planes [lo, hi).
func instanceNormRun[E float32 | float64](k *instanceNormKernel, x, scale, bias, y []E, lo, hi int) {
	for p := lo; p < hi; p++ {
		c := p % k.c
		xs := x[p*k.size : (p+1)*k.size]
		ys := y[p*k.size : (p+1)*k.size]
		var s float64
		for _, v := range xs {
			s += float64(v)
		}
		mean := s / float64(k.size)
		var ss float64
		for _, v := range xs {
			d := float64(v) - mean
			ss += d * d
		}
		a := float64(scale[c]) / math.Sqrt(ss/float64(k.size)+k.eps)
		b := float64(bias[c])
		for i, v := range xs {
			ys[i] = E((float64(v)-mean)*a + b)
		}
	}
}
