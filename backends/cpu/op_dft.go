package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// dftKernel runs DFT (model.DFTAttrs) for float32, float64, float16 and
// bfloat16 signals. It works in float64: the input is read into a
// float64 buffer, each signal along the axis is transformed by an
// fftPlan of the transform's length (kept until the length changes),
// and the results are rounded once into the output.
type dftKernel struct {
	n    *model.Node
	a    *model.DFTAttrs
	plan *fftPlan
	xs   []float64
	ys   []float64
	line []complex128
	ibuf []int64
}

// planFor returns the kernel's plan for length n, made when the length
// changes.
func planFor(p **fftPlan, n int) *fftPlan {
	if *p == nil || (*p).n != n {
		*p = newFFTPlan(n)
	}
	return *p
}

// growC128 returns a slice of n complex128s backed by *buf, grown only
// when too small; it is not cleared.
func growC128(buf *[]complex128, n int) []complex128 {
	if cap(*buf) < n {
		*buf = make([]complex128, n)
	}
	return (*buf)[:n]
}

// scalarInt returns the value of a one-element integer tensor.
func scalarInt(t *tensor, buf *[]int64) int64 {
	v, _ := intValues(t, buf)
	return v[0]
}

func (k *dftKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	dims := x.shape
	r := len(dims)
	axis := k.a.Axis
	if t := optIn(in, 2); t != nil && k.a.AxisInput {
		axis = scalarInt(t, &k.ibuf)
	}
	ax, ok := model.DFTAxis(axis, r)
	if !ok {
		return shapeErr(k.n, "axis %d out of range for an input of rank %d", axis, r)
	}
	n := dims[ax]
	length := k.a.DFTLength(n)
	if t := optIn(in, 1); t != nil {
		length = int(scalarInt(t, &k.ibuf))
	}
	m, comps, oc := y.shape[ax], dims[r-1], y.shape[r-1]
	outer := mulDims(dims[:ax])
	inner := mulDims(dims[ax+1 : r-1])
	xs := floatValues(x, &k.xs)
	ys := growF64(&k.ys, y.numel())
	if len(ys) == 0 {
		return nil
	}
	plan := planFor(&k.plan, length)
	line := growC128(&k.line, length)
	irfft := k.a.Inverse && k.a.Onesided
	take := min(n, length)
	if irfft {
		take = min(n, length/2+1)
	}
	scale := 1.0
	if k.a.Inverse {
		scale = 1 / float64(length)
	}
	for o := range outer {
		for i := range inner {
			base := o*n*inner + i
			for j := range take {
				at := (base + j*inner) * comps
				im := 0.0
				if comps == 2 {
					im = xs[at+1]
				}
				line[j] = complex(xs[at], im)
			}
			clear(line[take:])
			switch {
			case irfft:
				hermitian(line)
				plan.inverse(line)
			case k.a.Inverse:
				plan.inverse(line)
			default:
				plan.forward(line)
			}
			obase := o*m*inner + i
			for q := range m {
				at := (obase + q*inner) * oc
				v := line[q]
				ys[at] = real(v) * scale
				if oc == 2 {
					ys[at+1] = imag(v) * scale
				}
			}
		}
	}
	castFrom(y, ys)
	return nil
}

// hermitian completes the half spectrum at the start of line (its first
// len/2+1 bins) into the full spectrum of a real signal, as an inverse
// real FFT reads it: X[n−k] = conj(X[k]), with the imaginary parts of
// the DC bin and, for an even length, of the middle bin dropped.
func hermitian(line []complex128) {
	n := len(line)
	line[0] = complex(real(line[0]), 0)
	if n%2 == 0 {
		line[n/2] = complex(real(line[n/2]), 0)
	}
	for j := 1; j < (n+1)/2; j++ {
		line[n-j] = conj(line[j])
	}
}

func init() {
	register("DFT", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.DFTAttrs)
		if err := c.needTypes(payload.Float32, payload.Float64, payload.Float16, payload.BF16); err != nil {
			return nil, err
		}
		if !c.intInputOK(1, true) {
			return nil, c.invalid("dft_length of type %s, want int32 or int64", c.inType(1))
		}
		if !c.intInputOK(2, false) {
			return nil, c.invalid("axis of type %s, want int64", c.inType(2))
		}
		return &dftKernel{n: c.n, a: a}, nil
	})
}
