package cpu

import (
	"math"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// causalConvKernel runs CausalConvWithState (opset 27) on float32,
// float64 and float16 tensors, whose shapes the descriptor's rule
// (model.CausalConvAttrs) has checked. Each (batch, channel) row is
// widened to float64 after its past state, convolved there and narrowed
// into the output; the state's last k-1 values go to present_state.
type causalConvKernel struct {
	dt   payload.DType
	silu bool
	// state is set when the node names present_state.
	state bool
	// seq holds one row's past state and input; w and b the weights and
	// biases, widened.
	seq, w, b []float64
}

// causalElem is the element types the kernel runs.
type causalElem interface {
	float32 | float64 | float16.Float16
}

// widenTo sets d[i] to s[i] as a float64.
func widenTo[E causalElem](d []float64, s []E) {
	switch s := any(s).(type) {
	case []float32:
		for i, v := range s {
			d[i] = float64(v)
		}
	case []float64:
		copy(d, s)
	case []float16.Float16:
		for i, v := range s {
			d[i] = float64(v.Float32())
		}
	}
}

// narrowTo sets d[i] to s[i] in d's element type.
func narrowTo[E causalElem](d []E, s []float64) {
	switch d := any(d).(type) {
	case []float32:
		for i := range d {
			d[i] = float32(s[i])
		}
	case []float64:
		copy(d, s)
	case []float16.Float16:
		for i := range d {
			d[i] = float16.Fromfloat32(float32(s[i]))
		}
	}
}

func (k *causalConvKernel) run(in, out []*tensor) error {
	switch k.dt {
	case payload.Float32:
		causalConvRun[float32](k, in, out)
	case payload.Float64:
		causalConvRun[float64](k, in, out)
	case payload.Float16:
		causalConvRun[float16.Float16](k, in, out)
	}
	return nil
}

func causalConvRun[E causalElem](k *causalConvKernel, in, out []*tensor) {
	s := in[0].shape
	nb, nc, l := s[0], s[1], s[2]
	kw := in[1].shape[2]
	p := kw - 1
	w := growF64(&k.w, nc*kw)
	widenTo(w, elems[E](in[1]))
	b := growF64(&k.b, nc)
	if t := optIn(in, 2); t != nil {
		widenTo(b, elems[E](t))
	} else {
		clear(b)
	}
	seq := growF64(&k.seq, p+l)
	x, y := elems[E](in[0]), elems[E](out[0])
	var past, present []E
	if t := optIn(in, 3); t != nil {
		past = elems[E](t)
	}
	if k.state && len(out) > 1 {
		present = elems[E](out[1])
	}
	for r := range nb * nc {
		c := r % nc
		if past != nil {
			widenTo(seq[:p], past[r*p:(r+1)*p])
		} else {
			clear(seq[:p])
		}
		widenTo(seq[p:], x[r*l:(r+1)*l])
		if present != nil {
			narrowTo(present[r*p:(r+1)*p], seq[l:])
		}
		wr := w[c*kw : (c+1)*kw]
		// The output overwrites seq's head, which later outputs no
		// longer read: output t reads seq[t:t+kw].
		for t := range l {
			v := b[c]
			for j, wv := range wr {
				v += wv * seq[t+j]
			}
			if k.silu {
				v /= 1 + math.Exp(-v)
			}
			seq[t] = v
		}
		narrowTo(y[r*l:(r+1)*l], seq[:l])
	}
}

func init() {
	register("CausalConvWithState", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64, payload.Float16); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		for i := 1; i < c.n.NumInputs(); i++ {
			if c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.invalid("input %d is %s, input 0 is %s", i, c.inType(i), dt)
			}
		}
		k := &causalConvKernel{dt: dt, silu: c.rule.(*model.CausalConvAttrs).SiLU}
		k.state = len(c.n.Outputs) > 1 && c.n.Outputs[1] != ""
		return k, nil
	})
}
