package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// rotaryKernel runs RotaryEmbedding (opset 23) on the float32 and
// float64 inputs whose shapes the descriptor's rule (model.RotaryAttrs)
// has checked: the first rotary-dim values of every head vector are
// rotated in pairs by the cached angle of the token's position, the
// rest copied.
type rotaryKernel struct {
	n  *model.Node
	dt payload.DType
	a  *model.RotaryAttrs
}

// rotaryGeom is one call's sizes: batch, heads, sequence, head size and
// the count of rotated pairs; x's strides for batch, head and token.
type rotaryGeom struct {
	b, h, s, d, half int
	bs, hs, ss       int
}

func (k *rotaryKernel) geometry(x []int) rotaryGeom {
	var g rotaryGeom
	if len(x) == 4 {
		g.b, g.h, g.s, g.d = x[0], x[1], x[2], x[3]
		g.bs, g.hs, g.ss = g.h*g.s*g.d, g.s*g.d, g.d
	} else {
		g.b, g.s, g.h = x[0], x[1], int(k.a.NumHeads)
		g.d = x[2] / g.h
		g.bs, g.hs, g.ss = g.s*x[2], g.d, x[2]
	}
	g.half = g.d / 2
	if k.a.RotaryDim > 0 {
		g.half = int(k.a.RotaryDim) / 2
	}
	return g
}

// shape refuses caches of different lengths and positions outside them.
func (k *rotaryKernel) shape(in, out []*tensor) error {
	if p := optIn(in, 3); p != nil {
		rows := min(in[1].shape[0], in[2].shape[0])
		for _, v := range p.i64() {
			if v < 0 || v >= int64(rows) {
				return shapeErr(k.n, "position %d out of range for caches of %d positions", v, rows)
			}
		}
	}
	return nil
}

func (k *rotaryKernel) run(in, out []*tensor) error {
	g := k.geometry(in[0].shape)
	var pos []int64
	if p := optIn(in, 3); p != nil {
		pos = p.i64()
		// shape ran when the shapes last changed; the positions are
		// data, so check them on every call.
		if err := k.shape(in, out); err != nil {
			return err
		}
	}
	switch k.dt {
	case payload.Float32:
		rotaryRun(k.a.Interleaved, g, out[0].f32(), in[0].f32(), in[1].f32(), in[2].f32(), pos)
	case payload.Float64:
		rotaryRun(k.a.Interleaved, g, out[0].f64(), in[0].f64(), in[1].f64(), in[2].f64(), pos)
	}
	return nil
}

func rotaryRun[T ewFloat](inter bool, g rotaryGeom, d, x, cs, sn []T, pos []int64) {
	hf := g.half
	for b := range g.b {
		for t := range g.s {
			row := b*g.s + t
			if pos != nil {
				row = int(pos[row])
			}
			cr, sr := cs[row*hf:][:hf], sn[row*hf:][:hf]
			for h := range g.h {
				o := b*g.bs + h*g.hs + t*g.ss
				xv, dv := x[o:o+g.d], d[o:o+g.d]
				if inter {
					for i, c := range cr {
						x1, x2 := xv[2*i], xv[2*i+1]
						dv[2*i] = c*x1 - sr[i]*x2
						dv[2*i+1] = sr[i]*x1 + c*x2
					}
				} else {
					for i, c := range cr {
						x1, x2 := xv[i], xv[i+hf]
						dv[i] = c*x1 - sr[i]*x2
						dv[i+hf] = sr[i]*x1 + c*x2
					}
				}
				copy(dv[2*hf:], xv[2*hf:])
			}
		}
	}
}

func init() {
	register("RotaryEmbedding", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		for i := 1; i <= 2; i++ {
			if c.inType(i) != dt {
				return nil, c.invalid("input %d is %s, X is %s", i, c.inType(i), dt)
			}
		}
		if c.n.NumInputs() > 3 && c.n.Input(3) != "" && c.inType(3) != payload.Int64 {
			return nil, c.invalid("position_ids is %s, want int64", c.inType(3))
		}
		return &rotaryKernel{n: c.n, dt: dt, a: c.rule.(*model.RotaryAttrs)}, nil
	})
}
