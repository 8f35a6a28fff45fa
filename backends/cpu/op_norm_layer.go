package cpu

import (
	"unsafe"

	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// layerNormKernel runs LayerNormalization (opset 17): each row of the
// trailing dims from axis on is normalised to zero mean and unit variance,
// then scaled and shifted. Scale and B hold one value per row element (or
// a single value). The optional Mean and InvStdDev outputs are filled.
// It computes as ONNX Runtime does, so that results agree closely even on
// rows with a large offset: the mean and the mean of squares accumulate in
// the element type, and the variance is their difference.
type layerNormKernel struct {
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

// geometry returns the normalised axis, the row count and the row length.
func (k *layerNormKernel) geometry(s []int) (a, rows, n int, ok bool) {
	a, ok = normAxis(k.axis, len(s))
	if !ok {
		return 0, 0, 0, false
	}
	rows, n = 1, 1
	for _, d := range s[:a] {
		rows *= d
	}
	for _, d := range s[a:] {
		n *= d
	}
	return a, rows, n, true
}

// shape refuses Scale and B other than one value per row element or a
// single value, the forms the kernel handles; the descriptor's rule
// (model.LayerNormAttrs) sets the output shapes.
func (k *layerNormKernel) shape(in, out []*tensor) error {
	x := in[0].shape
	a, _, n, ok := k.geometry(x)
	if !ok {
		return shapeErr(k.n, "axis %d out of range for shape %v", k.axis, x)
	}
	for i := 1; i < 3 && i < len(in); i++ {
		if t := in[i]; t != nil {
			if m := t.numel(); m != n && m != 1 {
				return shapeErr(k.n, "input %d has shape %v; want %d values for normalised shape %v", i, t.shape, n, x[a:])
			}
		}
	}
	return nil
}

func (k *layerNormKernel) run(in, out []*tensor) error {
	_, rows, n, _ := k.geometry(in[0].shape)
	if n == 0 {
		return nil
	}
	k.cin, k.cout, k.cols = in, out, n
	k.par.run(k.pool, k, rows, 6*n)
	k.cin, k.cout = nil, nil
	return nil
}

// runRange normalises rows [lo, hi) of the current call.
func (k *layerNormKernel) runRange(_, lo, hi int) {
	in, out, n := k.cin, k.cout, k.cols
	var b *tensor
	if len(in) > 2 {
		b = in[2]
	}
	var mean, inv *tensor
	if len(out) > 1 {
		mean = out[1]
	}
	if len(out) > 2 {
		inv = out[2]
	}
	switch k.dt {
	case payload.Float32:
		layerNormRun(k, out[0].f32(), in[0].f32(), in[1], b, mean, inv, lo, hi, n)
	case payload.Float64:
		layerNormRun(k, out[0].f64(), in[0].f64(), in[1], b, mean, inv, lo, hi, n)
	}
}

// lnStat stores a row statistic into an optional float32 or float64
// output.
func lnStat(t *tensor, r int, v float64) {
	if t == nil || len(t.data) == 0 {
		return
	}
	switch t.dt {
	case payload.Float32:
		t.f32()[r] = float32(v)
	case payload.Float64:
		t.f64()[r] = v
	}
}

// layerNormRun normalises rows [lo, hi) of n values.
func layerNormRun[T ewFloat](k *layerNormKernel, d, x []T, scale, bias, mean, inv *tensor, lo, hi, n int) {
	s := elems[T](scale)
	ss := 1
	if len(s) == 1 {
		ss = 0
	}
	var b []T
	sb := 0
	if bias != nil {
		b = elems[T](bias)
		if len(b) != 1 {
			sb = 1
		}
	}
	fn := T(n)
	eps := T(k.eps)
	f32 := unsafe.Sizeof(fn) == 4
	var sums, sqs [8]float32
	next := 8 // the rows from r8 on have their sums in sums and sqs
	r8 := lo
	for r := lo; r < hi; r++ {
		xr, dr := x[r*n:(r+1)*n], d[r*n:(r+1)*n]
		// Each row's sums stay serial: ONNX Runtime sums in this order,
		// and on rows far from zero (E[x²]-mu² cancels) another order
		// would drift from it. Eight float32 rows run at once, a row a
		// vector lane, in the same order.
		var sum, sq T
		if f32 && next == 8 && hi-r >= 8 && lnSums8(f32s(x[r*n:]), n, n, &sums, &sqs) {
			next, r8 = 0, r
		}
		if next < 8 && r-r8 == next {
			sum, sq = T(sums[next]), T(sqs[next])
			next++
		} else {
			for _, v := range xr {
				sum += v
				sq += T(v * v)
			}
		}
		mu := sum / fn
		va := sq/fn - mu*mu
		if va < 0 { // rounding on a near-constant row
			va = 0
		}
		den := T(math.Sqrt(float64(va + eps)))
		lnStat(mean, r, float64(mu))
		lnStat(inv, r, float64(1/den))
		if f32 && b != nil && ss == 1 && sb == 1 {
			norm32(f32s(dr), f32s(xr), f32s(s), f32s(b), float32(mu), float32(den))
			continue
		}
		if b == nil {
			for i, v := range xr {
				dr[i] = (v - mu) / den * s[i*ss]
			}
		} else {
			for i, v := range xr {
				dr[i] = T((v-mu)/den*s[i*ss]) + b[i*sb]
			}
		}
	}
}

func init() {
	register("LayerNormalization", viaF32Stats(func(c *buildCtx) (kernel, error) {
		if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
			return nil, err
		}
		dt := c.inType(0)
		for i := 1; i < c.n.NumInputs(); i++ {
			if c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.invalid("input %d is %s, X is %s", i, c.inType(i), dt)
			}
		}
		a := c.rule.(*model.LayerNormAttrs)
		for i := 1; i < len(c.out); i++ {
			if c.n.Outputs[i] == "" {
				continue
			}
			if t := c.out[i].DType; t != payload.Float32 && t != payload.Float64 {
				return nil, c.unsupported("output %d of type %s", i, t)
			}
		}
		if s := c.in[0].Shape; c.in[0].RankKnown {
			if _, ok := normAxis(a.Axis, len(s)); !ok {
				return nil, c.invalid("axis %d out of range for rank %d", a.Axis, len(s))
			}
		}
		return &layerNormKernel{n: c.n, dt: dt, axis: a.Axis, eps: float64(a.Epsilon), pool: c.pool()}, nil
	}))
}
