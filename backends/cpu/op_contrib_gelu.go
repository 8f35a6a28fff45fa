package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// msGeluKernel runs the GELU activations of ONNX Runtime's contrib
// domain (model.MSGeluAttrs) in float32, with the bias, when given,
// added to every row first. float16 runs through viaF32.
type msGeluKernel struct {
	kind  int
	alpha float32
}

func (k *msGeluKernel) run(in, out []*tensor) error {
	d, x := out[0].f32(), in[0].f32()
	var b []float32
	if t := optIn(in, 1); t != nil {
		b = t.f32()
	}
	n := len(d)
	if len(b) == 0 {
		msGelu(k.kind, k.alpha, d, x[:n], nil)
		return nil
	}
	w := len(b)
	for o := 0; o < n; o += w {
		msGelu(k.kind, k.alpha, d[o:o+w], x[o:o+w], b)
	}
	return nil
}

// msGelu writes the activation of x (plus b, when not nil, of x's
// length) to d.
func msGelu(kind int, alpha float32, d, x, b []float32) {
	if kind == model.MSGeluErf {
		// The exact form on erf32, as the default domain's Gelu.
		if b != nil {
			for i, v := range x {
				d[i] = v + b[i]
			}
		} else if len(d) > 0 && &d[0] != &x[0] {
			copy(d, x)
		}
		gelu32s(d[:len(x)])
		return
	}
	for i, v := range x {
		if b != nil {
			v += b[i]
		}
		switch kind {
		case model.MSGeluErf:
			d[i] = float32(fnGelu(float64(v), 0, 0))
		case model.MSGeluTanh:
			d[i] = float32(fnGeluTanh(float64(v), 0, 0))
		default:
			d[i] = v * sigmoid32(alpha*v)
		}
	}
}

func init() {
	for _, op := range []string{"Gelu", "BiasGelu", "FastGelu", "QuickGelu"} {
		registerMS(op, viaF32(func(c *buildCtx) (kernel, error) {
			if err := c.needTypes(payload.Float32); err != nil {
				return nil, err
			}
			if c.n.NumInputs() > 1 && c.n.Input(1) != "" && c.inType(1) != payload.Float32 {
				return nil, c.invalid("input 1 is %s, X is %s", c.inType(1), c.inType(0))
			}
			a := c.rule.(*model.MSGeluAttrs)
			return &msGeluKernel{kind: a.Kind, alpha: a.Alpha}, nil
		}))
	}
}
