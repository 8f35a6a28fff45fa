package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// signalWindowKernel runs HannWindow, HammingWindow and BlackmanWindow
// (model.SignalWindowAttrs): the window is computed in float64 with the
// coefficients and the order of operations of ONNX's reference, then
// converted to the output type (truncating toward zero for integers, as
// ONNX Runtime does).
type signalWindowKernel struct {
	a  *model.SignalWindowAttrs
	ys []float64
}

// windowCoefs returns a window's a0, a1 and a2.
func windowCoefs(kind model.SignalWindowKind) (a0, a1, a2 float64) {
	switch kind {
	case model.HammingWindow:
		a0 = 25.0 / 46.0
		return a0, 1 - a0, 0
	case model.BlackmanWindow:
		return 0.42, 0.5, 0.08
	}
	return 0.5, 0.5, 0
}

// fillSignalWindow writes the window w[n] = a0 − a1·cos(2πn/N) + a2·cos(4πn/N)
// of len(y) values, N being len(y) when periodic, len(y)−1 when not.
func fillSignalWindow(y []float64, kind model.SignalWindowKind, periodic bool) {
	a0, a1, a2 := windowCoefs(kind)
	size := float64(len(y))
	if !periodic {
		size--
	}
	for i := range y {
		n := float64(i)
		v := a0 - a1*math.Cos(2*math.Pi*n/size)
		if a2 != 0 {
			v += a2 * math.Cos(4*math.Pi*n/size)
		}
		y[i] = v
	}
}

func (k *signalWindowKernel) run(in, out []*tensor) error {
	y := out[0]
	ys := growF64(&k.ys, y.numel())
	fillSignalWindow(ys, k.a.Kind, k.a.Periodic)
	castFrom(y, ys)
	return nil
}

func init() {
	for _, op := range []string{"HannWindow", "HammingWindow", "BlackmanWindow"} {
		register(op, func(c *buildCtx) (kernel, error) {
			a := c.rule.(*model.SignalWindowAttrs)
			if err := c.needTypes(payload.Int32, payload.Int64); err != nil {
				return nil, err
			}
			if !castable(a.DType) {
				return nil, c.unsupported("output_datatype %s", a.DType)
			}
			return &signalWindowKernel{a: a}, nil
		})
	}
}
