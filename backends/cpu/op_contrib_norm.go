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

// skipSumGo sets y = x + skip (+ bias, when not nil) in float32 and
// returns the float64 sum of y and the float64 sum of the float32
// squares y[i]·y[i] (ONNX Runtime's SkipLayerNormalization squares in
// the input type), in skipSumAVX's order (sums8).
func skipSumGo(y, x, skip, bias []float32) (s, sq float64) {
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
	// The elements past the last whole eight are summed apart, as
	// skipSum leaves them to this loop after the vector one.
	n := len(y) &^ 7
	s, sq = sums8(y[:n])
	ts, tq := sums8(y[n:])
	return s + ts, sq + tq
}

// sums8 returns the float64 sum of y and of its float32 squares, element
// i added to partial sum i mod 8 of each, the partials folded as
// skipSumAVX folds its lanes: 0-3 with 4-7, then the halves, then the
// pair.
func sums8(y []float32) (s, sq float64) {
	var s8, q8 [8]float64
	for i, v := range y {
		s8[i%8] += float64(v)
		q8[i%8] += float64(float32(v * v))
	}
	fold := func(a *[8]float64) float64 {
		l0, l1, l2, l3 := a[0]+a[4], a[1]+a[5], a[2]+a[6], a[3]+a[7]
		return (l0 + l2) + (l1 + l3)
	}
	return fold(&s8), fold(&q8)
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
