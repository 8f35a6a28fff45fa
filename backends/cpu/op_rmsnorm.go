package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// rmsNormKernel runs RMSNormalization (opset 23): each row of the dims
// from axis on is divided by sqrt(mean(x²) + epsilon) and multiplied by
// scale, which holds one value per row element or a single value. The
// mean of squares accumulates in float64 whatever stash_type says: at
// least as precise as the float32 the suite's reference uses.
type rmsNormKernel struct {
	n    *model.Node
	dt   payload.DType
	axis int64
	eps  float64
	// pool splits the rows; par and the call fields hold the current
	// call's split.
	pool      *workerPool
	par       parFor
	cin, cout []*tensor
	cols      int
}

// geometry returns the row count and the row length.
func (k *rmsNormKernel) geometry(s []int) (rows, n int) {
	a, _ := normAxis(k.axis, len(s))
	return mulDims(s[:a]), mulDims(s[a:])
}

// shape refuses a scale other than one value per row element or a
// single value, the forms the kernel handles.
func (k *rmsNormKernel) shape(in, out []*tensor) error {
	x := in[0].shape
	a, ok := normAxis(k.axis, len(x))
	if !ok {
		return shapeErr(k.n, "axis %d out of range for shape %v", k.axis, x)
	}
	_, n := k.geometry(x)
	if m := in[1].numel(); m != n && m != 1 {
		return shapeErr(k.n, "scale has shape %v; want %d values for normalised shape %v", in[1].shape, n, x[a:])
	}
	return nil
}

func (k *rmsNormKernel) run(in, out []*tensor) error {
	rows, n := k.geometry(in[0].shape)
	if n == 0 {
		return nil
	}
	k.cin, k.cout, k.cols = in, out, n
	k.par.run(k.pool, k, rows, 4*n)
	k.cin, k.cout = nil, nil
	return nil
}

// runRange normalises rows [lo, hi) of the current call.
func (k *rmsNormKernel) runRange(_, lo, hi int) {
	in, out, n := k.cin, k.cout, k.cols
	switch k.dt {
	case payload.Float32:
		rmsNormRun(out[0].f32(), in[0].f32(), in[1].f32(), lo, hi, n, k.eps)
	case payload.Float64:
		rmsNormRun(out[0].f64(), in[0].f64(), in[1].f64(), lo, hi, n, k.eps)
	}
}

// rmsNormRun normalises rows [lo, hi) of n values.
func rmsNormRun[T ewFloat](d, x, s []T, lo, hi, n int, eps float64) {
	ss := 1
	if len(s) == 1 {
		ss = 0
	}
	for r := lo; r < hi; r++ {
		xr, dr := x[r*n:(r+1)*n], d[r*n:(r+1)*n]
		var sq float64
		for _, v := range xr {
			sq += float64(v) * float64(v)
		}
		inv := T(1 / math.Sqrt(sq/float64(n)+eps))
		if ss == 1 {
			sr := s[:n]
			for i, v := range xr {
				dr[i] = v * inv * sr[i]
			}
		} else {
			for i, v := range xr {
				dr[i] = v * inv * s[0]
			}
		}
	}
}

func init() {
	register("RMSNormalization", func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		if c.inType(1) != dt {
			return nil, c.unsupported("scale of type %s with X of type %s", c.inType(1), dt)
		}
		a := c.rule.(*model.RMSNormAttrs)
		if s := c.in[0].Shape; c.in[0].RankKnown {
			if _, ok := normAxis(a.Axis, len(s)); !ok {
				return nil, c.invalid("axis %d out of range for rank %d", a.Axis, len(s))
			}
		}
		return &rmsNormKernel{n: c.n, dt: dt, axis: a.Axis, eps: float64(a.Epsilon), pool: c.pool()}, nil
	})
}
