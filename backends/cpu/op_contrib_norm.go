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
// the variance being their difference; with beta, the rows are then
// normalised in float32 as LayerNormalization's (norm32). float16 runs through viaF32.
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
		s, sq := skipSum(yr, xr, sr, bias)
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
		if beta != nil {
			// As LayerNormalization's rows: (v-mu)/den·gamma + beta
			// in float32, in AVX.
			norm32(yr, yr, gamma, beta, float32(mu), float32(den))
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

// skipSum sets y = x + skip (+ bias, when not nil) in float32 and
// returns the sum and the sum of squares of y in float64, each over four
// interleaved partial sums.
func skipSum(y, x, skip, bias []float32) (s, sq float64) {
	x, skip = x[:len(y)], skip[:len(y)]
	if bias != nil {
		bias = bias[:len(y)]
		for i := range y {
			y[i] = x[i] + skip[i] + bias[i]
		}
	} else {
		for i := range y {
			y[i] = x[i] + skip[i]
		}
	}
	var s4, q4 [4]float64
	i := 0
	for ; i+4 <= len(y); i += 4 {
		v0, v1, v2, v3 := float64(y[i]), float64(y[i+1]), float64(y[i+2]), float64(y[i+3])
		s4[0] += v0
		s4[1] += v1
		s4[2] += v2
		s4[3] += v3
		q4[0] += v0 * v0
		q4[1] += v1 * v1
		q4[2] += v2 * v2
		q4[3] += v3 * v3
	}
	for ; i < len(y); i++ {
		v := float64(y[i])
		s4[0] += v
		q4[0] += v * v
	}
	return (s4[0] + s4[1]) + (s4[2] + s4[3]), (q4[0] + q4[1]) + (q4[2] + q4[3])
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
