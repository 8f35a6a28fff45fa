package cpu

import (
	"math"
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// batchNormKernel runs BatchNormalization: y = (x - mean) / sqrt(var +
// epsilon) * scale + B, per channel (dim 1). In inference form mean and
// var are inputs; in training mode (training_mode=1, opset 14 on) they
// are the batch's, computed over every dim but the channel's (var being
// the population variance), and the optional outputs get the running
// statistics, input·momentum + batch·(1 - momentum), as ONNX's reference
// computes them.
type batchNormKernel struct {
	dt       payload.DType
	eps      float64
	training bool
	momentum float64
	c, size  int
	planes   int
	// mul and add are the per-channel coefficients, recomputed each run
	// (the parameters may be computed values).
	mul, add []float64
	// pool splits the planes of y's pass; par and the call fields hold
	// the current call's split.
	pool      *workerPool
	par       parFor
	cin, cout []*tensor
}

func init() {
	register("BatchNormalization", viaF32(buildBatchNorm))
}

func buildBatchNorm(c *buildCtx) (kernel, error) {
	if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
		return nil, err
	}
	for i := 1; i < 5; i++ {
		if t := c.inType(i); t != payload.Float32 && t != payload.Float64 {
			return nil, c.unsupported("input %d of element type %s", i, t)
		}
	}
	a := c.rule.(*model.BatchNormAttrs)
	if !a.Spatial {
		return nil, c.unsupported("spatial=0 (per-element statistics)")
	}
	if a.Training && c.opset < 14 {
		if c.opset < 7 {
			return nil, c.unsupported("training mode (is_test=0, the default before opset 7)")
		}
		return nil, c.unsupported("training mode before opset 14, with its saved statistics")
	}
	if !a.Training {
		for i, o := range c.n.Outputs {
			if i > 0 && o != "" {
				return nil, c.unsupported("training output %d (%q)", i, o)
			}
		}
	}
	return &batchNormKernel{dt: c.inType(0), eps: float64(a.Epsilon), training: a.Training, momentum: float64(a.Momentum), pool: c.pool()}, nil
}

func (k *batchNormKernel) shape(in, out []*tensor) error {
	k.c, k.planes, k.size = channelGeometry(in[0].shape)
	return nil
}

// channelGeometry returns C, the number of N×C planes and each plane's
// size for an N×C×… input whose shape the op's rule has checked.
func channelGeometry(x []int) (c, planes, size int) {
	c, size = x[1], 1
	for _, d := range x[2:] {
		size *= d
	}
	return c, x[0] * c, size
}

// paramAt returns element i of a float32 or float64 tensor as float64.
func paramAt(t *tensor, i int) float64 {
	if t.dt == payload.Float64 {
		return t.f64()[i]
	}
	return float64(t.f32()[i])
}

func (k *batchNormKernel) run(in, out []*tensor) error {
	if cap(k.mul) < k.c {
		k.mul = make([]float64, k.c)
		k.add = make([]float64, k.c)
	}
	k.mul, k.add = k.mul[:k.c], k.add[:k.c]
	if k.training {
		k.batchStats(in, out)
		return k.apply(in, out)
	}
	for c := range k.c {
		a := paramAt(in[1], c) / math.Sqrt(paramAt(in[4], c)+k.eps)
		k.mul[c] = a
		k.add[c] = paramAt(in[2], c) - paramAt(in[3], c)*a
	}
	return k.apply(in, out)
}

// batchStats sets mul and add from the batch's mean and variance, and
// writes the running statistics to the outputs that are there.
func (k *batchNormKernel) batchStats(in, out []*tensor) {
	n := k.planes / max(k.c, 1)
	count := float64(n * k.size)
	for c := range k.c {
		var sum float64
		for b := range n {
			p := (b*k.c + c) * k.size
			for i := range k.size {
				sum += paramAt(in[0], p+i)
			}
		}
		mean := sum / count
		var dev float64
		for b := range n {
			p := (b*k.c + c) * k.size
			for i := range k.size {
				d := paramAt(in[0], p+i) - mean
				dev += d * d
			}
		}
		variance := dev / count
		a := paramAt(in[1], c) / math.Sqrt(variance+k.eps)
		k.mul[c] = a
		k.add[c] = paramAt(in[2], c) - mean*a
		setRunning(optIn(out, 1), c, paramAt(in[3], c)*k.momentum+mean*(1-k.momentum))
		setRunning(optIn(out, 2), c, paramAt(in[4], c)*k.momentum+variance*(1-k.momentum))
	}
}

// setRunning writes element c of a running-statistics output, if the node
// has it.
func setRunning(o *tensor, c int, v float64) {
	switch {
	case o == nil || len(o.data) == 0:
	case o.dt == payload.Float64:
		o.f64()[c] = v
	default:
		o.f32()[c] = float32(v)
	}
}

// apply computes y from mul and add.
func (k *batchNormKernel) apply(in, out []*tensor) error {
	if k.size == 0 || k.c == 0 {
		return nil
	}
	k.cin, k.cout = in, out
	k.par.run(k.pool, k, k.planes, k.size)
	k.cin, k.cout = nil, nil
	return nil
}

// runRange computes planes [lo, hi) of y.
func (k *batchNormKernel) runRange(_, lo, hi int) {
	in, out := k.cin, k.cout
	switch k.dt {
	case payload.Float32:
		affinePlanes(in[0].f32(), out[0].f32(), lo, hi, k.size, k.mul, k.add)
	case payload.Float64:
		affinePlanes(in[0].f64(), out[0].f64(), lo, hi, k.size, k.mul, k.add)
	}
}

// affinePlanes sets y = x*mul[c] + add[c] over planes [lo, hi) of size
// elements, c cycling through len(mul) channels.
func affinePlanes[E float32 | float64](x, y []E, lo, hi, size int, mul, add []float64) {
	c := lo % len(mul)
	for p := lo; p < hi; p++ {
		a, b := E(mul[c]), E(add[c])
		xs := x[p*size : (p+1)*size]
		ys := y[p*size : (p+1)*size]
		if unsafe.Sizeof(a) == 4 {
			affine32(f32s(ys), f32s(xs), float32(a), float32(b))
		} else {
			for i, v := range xs {
				ys[i] = E(v*a) + b
			}
		}
		c++
		if c == len(mul) {
			c = 0
		}
	}
}
