package cpu

import (
	"math"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// linearAttentionKernel runs LinearAttention (opset 27) in float32, and
// in float16 by widening the inputs to float32 and narrowing the
// outputs, as ONNX's reference computes. The descriptor's rule
// (model.LinearAttentionAttrs) has checked the shapes.
type linearAttentionKernel struct {
	a     *model.LinearAttentionAttrs
	dt    payload.DType
	state bool // the node names present_state
	// s is the state when present_state is not a float32 output to hold
	// it; v one token's corrected value.
	s, v []float32
	// wide holds the float16 inputs (by input index) and the outputs
	// (7, 8) widened.
	wide [9][]float32
}

func (k *linearAttentionKernel) run(in, out []*tensor) error {
	state := k.state && len(out) > 1
	var x [7][]float32
	var o [2][]float32
	if k.dt == payload.Float32 {
		for i := range in {
			if t := optIn(in, i); t != nil {
				x[i] = t.f32()
			}
		}
		o[0] = out[0].f32()
		if state {
			o[1] = out[1].f32()
		}
	} else {
		for i := range in {
			if t := optIn(in, i); t != nil {
				src := elems[uint16](t)
				x[i] = growF32(&k.wide[i], len(src))
				halfF16.widenAll(x[i], src)
			}
		}
		o[0] = growF32(&k.wide[7], out[0].numel())
		if state {
			o[1] = growF32(&k.wide[8], out[1].numel())
		}
	}
	k.compute(in, x, o)
	if k.dt == payload.Float16 {
		for j := range 2 {
			if o[j] == nil {
				continue
			}
			d := elems[float16.Float16](out[j])
			for i, v := range o[j][:len(d)] {
				d[i] = float16.Fromfloat32(v)
			}
		}
	}
	return nil
}

// compute runs the recurrence on the float32 inputs x (nil when absent)
// into the outputs o (o[1] nil when present_state is not asked for).
func (k *linearAttentionKernel) compute(in []*tensor, x [7][]float32, o [2][]float32) {
	hq, hkv := int(k.a.QNumHeads), int(k.a.KVNumHeads)
	qs, vs := in[0].shape, in[2].shape
	nb, nt := qs[0], qs[1]
	dk, dv := qs[2]/hq, vs[2]/hkv
	grp := hq / hkv
	scale := k.a.Scale
	if scale == 0 {
		scale = float32(1 / math.Sqrt(float64(dk)))
	}
	decW, betaW := 0, 0
	if t := optIn(in, 4); t != nil {
		decW = t.shape[2]
	}
	if t := optIn(in, 5); t != nil {
		betaW = t.shape[2]
	}
	st := o[1]
	if st == nil {
		st = growF32(&k.s, nb*hkv*dk*dv)
	}
	vv := growF32(&k.v, dv)
	q, kk, v, dec, beta, erase := x[0], x[1], x[2], x[4], x[5], x[6]
	for b := range nb {
		for h := range hkv {
			s := st[(b*hkv+h)*dk*dv:][:dk*dv]
			if x[3] != nil {
				copy(s, x[3][(b*hkv+h)*dk*dv:])
			} else {
				clear(s)
			}
			for t := range nt {
				bt := b*nt + t
				kt := kk[bt*hkv*dk+h*dk:][:dk]
				copy(vv, v[bt*hkv*dv+h*dv:][:dv])
				if dec != nil {
					for d := range dk {
						g := dec[bt*decW+h]
						if decW != hkv {
							g = dec[bt*decW+h*dk+d]
						}
						mulConst32(s[d*dv:(d+1)*dv], float32(math.Exp(float64(g))))
					}
				}
				if beta != nil {
					bv := beta[bt*betaW]
					if betaW != 1 {
						bv = beta[bt*betaW+h]
					}
					for m := range dv {
						var r float32
						for d := range dk {
							kd := kt[d]
							if erase != nil {
								kd *= erase[bt*hkv*dk+h*dk+d]
							}
							r += s[d*dv+m] * kd
						}
						vv[m] = bv * (vv[m] - r)
					}
				}
				for d, kd := range kt {
					row := s[d*dv : (d+1)*dv]
					for m, w := range vv {
						row[m] += kd * w
					}
				}
				for g := range grp {
					qh := h*grp + g
					qt := q[bt*hq*dk+qh*dk:][:dk]
					y := o[0][bt*hq*dv+qh*dv:][:dv]
					clear(y)
					for d, qd := range qt {
						row := s[d*dv : (d+1)*dv]
						for m, w := range row {
							y[m] += qd * w
						}
					}
					for m := range y {
						y[m] *= scale
					}
				}
			}
		}
	}
}

func init() {
	register("LinearAttention", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float16); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		for i := 1; i < c.n.NumInputs(); i++ {
			if c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.unsupported("input %d of type %s with query of type %s", i, c.inType(i), dt)
			}
		}
		k := &linearAttentionKernel{a: c.rule.(*model.LinearAttentionAttrs), dt: dt}
		k.state = len(c.n.Outputs) > 1 && c.n.Outputs[1] != ""
		return k, nil
	})
}
