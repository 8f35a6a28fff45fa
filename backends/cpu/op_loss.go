package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// lossKernel runs NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss
// (model.LossAttrs) on float32 and float64 inputs with int32 or int64
// targets. Losses, the log-softmax and the sums are computed in float64.
type lossKernel struct {
	n  *model.Node
	a  *model.LossAttrs
	dt payload.DType
	// logProb is set when the node names the log-softmax output.
	logProb bool
	// lp holds SoftmaxCrossEntropyLoss's log-softmax; loss each target
	// element's weighted loss; w float32 weights as float64; tgt int32
	// targets as int64.
	lp, loss, w []float64
	tgt         []int64
}

func (k *lossKernel) run(in, out []*tensor) error {
	x := in[0]
	nb, nc := x.shape[0], x.shape[1]
	d := mulDims(x.shape[2:])
	m := nb * d // target elements
	tgt, _ := intValues(in[1], &k.tgt)
	tgt = tgt[:m]
	var w []float64
	if wt := optIn(in, 2); wt != nil {
		w = k.floatsOf(wt, nc)
	}
	k.loss = growFloats(k.loss, m)
	var src []float64
	if k.a.Softmax {
		k.lp = growFloats(k.lp, nb*nc*d)
		switch k.dt {
		case payload.Float32:
			logSoftmaxC(k.lp, x.f32(), nb, nc, d)
		case payload.Float64:
			logSoftmaxC(k.lp, x.f64(), nb, nc, d)
		}
		src = k.lp
		if k.logProb {
			storeFloats(out[1], k.lp)
		}
	}
	var sumW float64
	for n := range nb {
		for j := range d {
			i := n*d + j
			t := tgt[i]
			if k.a.HasIgnore && t == k.a.IgnoreIndex {
				k.loss[i] = 0
				continue
			}
			if t < 0 || t >= int64(nc) {
				return shapeErr(k.n, "target %d out of range for %d classes", t, nc)
			}
			wi := 1.0
			if w != nil {
				wi = w[t]
			}
			at := (n*nc+int(t))*d + j
			var v float64
			if src != nil {
				v = src[at]
			} else if k.dt == payload.Float32 {
				v = float64(x.f32()[at])
			} else {
				v = x.f64()[at]
			}
			k.loss[i] = -v * wi
			sumW += wi
		}
	}
	if k.a.Reduction == model.LossNone {
		storeFloats(out[0], k.loss[:m])
		return nil
	}
	var s float64
	for _, v := range k.loss[:m] {
		s += v
	}
	if k.a.Reduction == model.LossMean {
		// As the reference does: no weight left gives 0/0.
		s /= sumW
	}
	r := [1]float64{s}
	storeFloats(out[0], r[:])
	return nil
}

// floatsOf returns the first n values of a float32 or float64 tensor as
// float64, converted into the kernel's scratch for float32.
func (k *lossKernel) floatsOf(t *tensor, n int) []float64 {
	if t.dt == payload.Float64 {
		return t.f64()[:n]
	}
	k.w = growFloats(k.w, n)
	for i, v := range t.f32()[:n] {
		k.w[i] = float64(v)
	}
	return k.w
}

// logSoftmaxC writes the log-softmax over axis 1 of the nb×nc×d input x
// into dst.
func logSoftmaxC[T ewFloat](dst []float64, x []T, nb, nc, d int) {
	for n := range nb {
		base := n * nc * d
		for j := range d {
			m := math.Inf(-1)
			for c := range nc {
				m = max(m, float64(x[base+c*d+j]))
			}
			var s float64
			for c := range nc {
				s += math.Exp(float64(x[base+c*d+j]) - m)
			}
			ls := m + math.Log(s)
			for c := range nc {
				dst[base+c*d+j] = float64(x[base+c*d+j]) - ls
			}
		}
	}
}

// growFloats returns a slice of n float64s backed by b, grown only when
// too small.
func growFloats(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n, n+8)
	}
	return b[:n]
}

// storeFloats writes v into a float32 or float64 tensor.
func storeFloats(t *tensor, v []float64) {
	switch t.dt {
	case payload.Float32:
		d := t.f32()[:len(v)]
		for i, x := range v {
			d[i] = float32(x)
		}
	case payload.Float64:
		copy(t.f64(), v)
	}
}

func init() {
	b := func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		if !c.intInputOK(1, true) {
			return nil, c.unsupported("target element type %s (want int32 or int64)", c.inType(1))
		}
		if wt := c.inType(2); wt != payload.Undefined && wt != c.inType(0) {
			return nil, c.unsupported("weight element type %s, input %s", wt, c.inType(0))
		}
		return &lossKernel{n: c.n, a: c.rule.(*model.LossAttrs), dt: c.inType(0), logProb: len(c.n.Outputs) > 1 && c.n.Outputs[1] != ""}, nil
	}
	register("NegativeLogLikelihoodLoss", b)
	register("SoftmaxCrossEntropyLoss", b)
}
