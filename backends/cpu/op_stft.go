package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// stftKernel runs STFT (model.STFTAttrs) for float32, float64, float16
// and bfloat16 signals, in float64 as dftKernel does: each frame,
// multiplied by the window, is transformed by an fftPlan of the frame's
// length.
type stftKernel struct {
	n    *model.Node
	plan *fftPlan
	xs   []float64
	ws   []float64
	ys   []float64
	line []complex128
	ibuf []int64
}

func (k *stftKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	batch, n, comps := x.shape[0], x.shape[1], 1
	if len(x.shape) == 3 {
		comps = x.shape[2]
	}
	step := scalarInt(in[1], &k.ibuf)
	fl, wl := int64(-1), int64(-1)
	var ws []float64
	if w := optIn(in, 2); w != nil {
		ws = floatValues(w, &k.ws)
		wl = int64(len(ws))
	}
	if t := optIn(in, 3); t != nil {
		fl = scalarInt(t, &k.ibuf)
	}
	length, frames, ok := model.STFTFrames(int64(n), step, fl, wl)
	if !ok || frames != y.shape[1] {
		return shapeErr(k.n, "frames of %d values every %d over a signal of %d", max(fl, wl), step, n)
	}
	bins := y.shape[2]
	xs := floatValues(x, &k.xs)
	ys := growF64(&k.ys, y.numel())
	if len(ys) == 0 {
		return nil
	}
	plan := planFor(&k.plan, length)
	line := growC128(&k.line, length)
	for b := range batch {
		for f := range frames {
			start := (b*n + f*int(step)) * comps
			for j := range length {
				at := start + j*comps
				re, im := xs[at], 0.0
				if comps == 2 {
					im = xs[at+1]
				}
				if ws != nil {
					re, im = re*ws[j], im*ws[j]
				}
				line[j] = complex(re, im)
			}
			plan.forward(line)
			o := ys[(b*frames+f)*bins*2:]
			for q := range bins {
				o[2*q], o[2*q+1] = real(line[q]), imag(line[q])
			}
		}
	}
	castFrom(y, ys)
	return nil
}

func init() {
	register("STFT", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64, payload.Float16, payload.BF16); err != nil {
			return nil, err
		}
		if c.inType(1) != payload.Int32 && c.inType(1) != payload.Int64 {
			return nil, c.invalid("frame_step of type %s, want int32 or int64", c.inType(1))
		}
		if !c.intInputOK(3, true) {
			return nil, c.invalid("frame_length of type %s, want int32 or int64", c.inType(3))
		}
		if w := c.inType(2); w != payload.Undefined && w != c.inType(0) {
			return nil, c.invalid("window of type %s for a %s signal", w, c.inType(0))
		}
		return &stftKernel{n: c.n}, nil
	})
}
