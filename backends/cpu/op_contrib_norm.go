package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// skipNormKernel runs SkipLayerNormalization and
// SkipSimplifiedLayerNormalization (com.microsoft; model.SkipNormAttrs)
// in float32. As ONNX Runtime does, it sums input + skip + bias in
// float32 and accumulates each row's sum and sum of squares in float64,
// the variance being their difference. float16 runs through viaF32.
type skipNormKernel struct {
	a *model.SkipNormAttrs
}

func (k *skipNormKernel) run(in, out []*tensor) error {
	x, skip, gamma := in[0].f32(), in[1].f32(), in[2].f32()
	var beta, bias []float32
	if k.a.Beta >= 0 {
		if t := optIn(in, k.a.Beta); t != nil {
			beta = t.f32()
		}
	}
	if t := optIn(in, k.a.Bias); t != nil {
		bias = t.f32()
	}
	var mean, inv, sum []float32
	if len(out) > 1 && len(out[1].data) > 0 {
		mean = out[1].f32()
	}
	if len(out) > 2 && len(out[2].data) > 0 {
		inv = out[2].f32()
	}
	if len(out) > 3 && len(out[3].data) > 0 {
		sum = out[3].f32()
	}
	y := out[0].f32()
	h := len(gamma)
	if h == 0 {
		return nil
	}
	rows := len(y) / h
	skipRows := len(skip) / h
	eps := float64(k.a.Epsilon)
	for r := range rows {
		xr, yr := x[r*h:(r+1)*h], y[r*h:(r+1)*h]
		sr := skip[(r%skipRows)*h:][:h]
		var s, sq float64
		for i, v := range xr {
			v += sr[i]
			if bias != nil {
				v += bias[i]
			}
			yr[i] = v
			s += float64(v)
			sq += float64(v) * float64(v)
		}
		if sum != nil {
			copy(sum[r*h:(r+1)*h], yr)
		}
		mu := s / float64(h)
		var den float64
		if k.a.Simplified {
			den = math.Sqrt(sq/float64(h) + eps)
			mu = 0
		} else {
			den = math.Sqrt(sq/float64(h) - mu*mu + eps)
		}
		if mean != nil {
			mean[r] = float32(mu)
		}
		if inv != nil {
			inv[r] = float32(1 / den)
		}
		if k.a.Simplified {
			for i, v := range yr {
				yr[i] = float32(float64(v)/den) * gamma[i]
			}
			continue
		}
		for i, v := range yr {
			o := float32((float64(v)-mu)/den) * gamma[i]
			if beta != nil {
				o += beta[i]
			}
			yr[i] = o
		}
	}
	return nil
}

func init() {
	for _, op := range []string{"SkipLayerNormalization", "SkipSimplifiedLayerNormalization"} {
		registerMS(op, viaF32(func(c *buildCtx) (kernel, error) {
			if err := c.needTypes(payload.Float32); err != nil {
				return nil, err
			}
			for i := 1; i < c.n.NumInputs(); i++ {
				if c.n.Input(i) != "" && c.inType(i) != payload.Float32 {
					return nil, c.invalid("input %d is %s, input 0 is %s", i, c.inType(i), c.inType(0))
				}
			}
			for j := 1; j < len(c.out); j++ {
				if c.n.Outputs[j] != "" && c.out[j].DType != payload.Float32 {
					return nil, c.unsupported("output %d of type %s", j, c.out[j].DType)
				}
			}
			return &skipNormKernel{a: c.rule.(*model.SkipNormAttrs)}, nil
		}))
	}
	simplified := func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		if c.inType(1) != dt {
			return nil, c.unsupported("scale of type %s with X of type %s", c.inType(1), dt)
		}
		if len(c.n.Outputs) > 1 && c.n.Outputs[1] != "" {
			return nil, c.unsupported("the inv_std_var output")
		}
		a := c.rule.(*model.LayerNormAttrs)
		if s := c.in[0].Shape; c.in[0].RankKnown {
			if _, ok := normAxis(a.Axis, len(s)); !ok {
				return nil, c.invalid("axis %d out of range for rank %d", a.Axis, len(s))
			}
		}
		return &rmsNormKernel{n: c.n, dt: dt, axis: a.Axis, eps: float64(a.Epsilon)}, nil
	}
	// ONNX Runtime's SimplifiedLayerNormalization is of the default
	// domain.
	register("SimplifiedLayerNormalization", viaF32(simplified))
}
