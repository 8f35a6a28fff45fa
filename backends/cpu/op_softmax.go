package cpu

import (
	"unsafe"

	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// softmaxKernel runs Softmax and LogSoftmax, with the output shape the
// descriptor's rule (model.SoftmaxAttrs) sets. Before opset 13 the input is
// coerced to 2-D at axis (default 1) and each row of prod(dims[axis:])
// elements is normalised; from opset 13 the single axis (default -1) is.
// It subtracts the maximum and sums in float64.
type softmaxKernel struct {
	dt     payload.DType
	axis   int64
	coerce bool // opset < 13
	log    bool
	// acc and mx are per-inner-position scratch for strided axes, one
	// stretch of inner values per part.
	acc []float64
	mx  []float64
	// tin and tout are per-part scratch of one outer row, transposed,
	// for float32 Softmax on a strided axis.
	tin, tout []float32
	// pool splits the outer rows; par and the call fields hold the
	// current call's split.
	pool     *workerPool
	par      parFor
	cx, cd   *tensor
	n, inner int
}

// geometry returns the outer count, the axis length and the inner count.
func (k *softmaxKernel) geometry(s []int) (outer, n, inner int) {
	a, ok := normAxis(k.axis, len(s))
	if !ok { // a scalar: one element
		return 1, 1, 1
	}
	outer, n, inner = 1, 1, 1
	for _, d := range s[:a] {
		outer *= d
	}
	if k.coerce {
		for _, d := range s[a:] {
			n *= d
		}
		return outer, n, 1
	}
	n = s[a]
	for _, d := range s[a+1:] {
		inner *= d
	}
	return outer, n, inner
}

func (k *softmaxKernel) run(in, out []*tensor) error {
	outer, n, inner := k.geometry(in[0].shape)
	if n == 0 || outer == 0 || inner == 0 {
		return nil
	}
	strided32 := inner > 1 && !k.log && k.dt == payload.Float32
	switch {
	case strided32:
		if m := k.pool.size() * n * inner; cap(k.tin) < m {
			k.tin = make([]float32, m)
			k.tout = make([]float32, m)
		}
	case inner > 1:
		if m := k.pool.size() * inner; cap(k.acc) < m {
			k.acc = make([]float64, m)
			k.mx = make([]float64, m)
		}
	}
	// A float32 row costs about 2 units an element (a compare for the
	// maximum, the AVX exp and the scale); strided axes, LogSoftmax and
	// float64 run math.Exp in float64, about 16.
	work := 2 * n * inner
	if strided32 {
		work = 4 * n * inner
	} else if inner > 1 || k.log || k.dt != payload.Float32 {
		work = 16 * n * inner
	}
	k.cx, k.cd, k.n, k.inner = in[0], out[0], n, inner
	k.par.run(k.pool, k, outer, work)
	k.cx, k.cd = nil, nil
	return nil
}

// runRange normalises outer rows [lo, hi) of the current call.
func (k *softmaxKernel) runRange(part, lo, hi int) {
	switch k.dt {
	case payload.Float32:
		softmaxRun(k, part, k.cd.f32(), k.cx.f32(), lo, hi, k.n, k.inner)
	case payload.Float64:
		softmaxRun(k, part, k.cd.f64(), k.cx.f64(), lo, hi, k.n, k.inner)
	}
}

// softmaxRun normalises outer rows [lo, hi), each of n values inner
// apart, with part's scratch.
func softmaxRun[T ewFloat](k *softmaxKernel, part int, d, x []T, lo, hi, n, inner int) {
	if inner == 1 {
		if unsafe.Sizeof(x[0]) == 4 && !k.log && softmaxRowsWide(f32s(d[lo*n:hi*n]), f32s(x[lo*n:hi*n]), n, hi-lo) {
			return
		}
		for o := lo; o < hi; o++ {
			softmaxRow(d[o*n:(o+1)*n], x[o*n:(o+1)*n], k.log)
		}
		return
	}
	if unsafe.Sizeof(x[0]) == 4 && !k.log {
		softmaxStrided32(k, part, f32s(d), f32s(x), lo, hi, n, inner)
		return
	}
	mx, acc := k.mx[part*inner:(part+1)*inner], k.acc[part*inner:(part+1)*inner]
	for o := lo; o < hi; o++ {
		base := o * n * inner
		xs, ds := x[base:base+n*inner], d[base:base+n*inner]
		for j := range mx {
			mx[j] = math.Inf(-1)
			acc[j] = 0
		}
		for i := range n {
			row := xs[i*inner : (i+1)*inner]
			for j, v := range row {
				mx[j] = max(mx[j], float64(v))
			}
		}
		for i := range n {
			row, dr := xs[i*inner:(i+1)*inner], ds[i*inner:(i+1)*inner]
			for j, v := range row {
				e := math.Exp(float64(v) - mx[j])
				acc[j] += e
				if !k.log {
					dr[j] = T(e)
				}
			}
		}
		for i := range n {
			row, dr := xs[i*inner:(i+1)*inner], ds[i*inner:(i+1)*inner]
			if k.log {
				for j, v := range row {
					dr[j] = T(float64(v) - mx[j] - math.Log(acc[j]))
				}
			} else {
				for j := range dr {
					dr[j] = T(float64(dr[j]) / acc[j])
				}
			}
		}
	}
}

// softmaxStrided32 normalises float32 outer rows [lo, hi), each of n
// values inner apart, as contiguous rows: each outer row is transposed
// into part's scratch (inner rows of n), each row normalised by
// softmaxRow (the vector path, or float64 where a row's maximum is not
// finite), and the result transposed back.
func softmaxStrided32(k *softmaxKernel, part int, d, x []float32, lo, hi, n, inner int) {
	sz := n * inner
	tin, tout := k.tin[part*sz:(part+1)*sz], k.tout[part*sz:(part+1)*sz]
	for o := lo; o < hi; o++ {
		transposeInto(tin, x[o*sz:(o+1)*sz], n, inner)
		if !softmaxRowsWide(tout, tin, n, inner) {
			for j := range inner {
				softmaxRow(tout[j*n:(j+1)*n], tin[j*n:(j+1)*n], false)
			}
		}
		transposeInto(d[o*sz:(o+1)*sz], tout, inner, n)
	}
}

// softmaxRow32 is softmaxRow for float32 on the vectorised exp, summed
// in float32: it reports false, doing nothing, when the row's maximum is
// not finite (a NaN or an infinity), which the float64 path handles.
func softmaxRow32(d, x []float32) bool {
	if ok, ran := softmaxRowWide(d, x); ran {
		return ok
	}
	m, nan := maxNaN32(x)
	if nan {
		return false
	}
	if math.IsInf(float64(m), 0) {
		return false
	}
	s := expSub32(d, x, m)
	// s >= 1 (the maximum's term is 1), so this is scaleRow(d, 1/s).
	mulConst32(d, 1/s)
	return true
}

// softmaxRow normalises one contiguous row.
func softmaxRow[T ewFloat](d, x []T, log bool) {
	x = x[:len(d)]
	if unsafe.Sizeof(x[0]) == 4 && !log && softmaxRow32(f32s(d), f32s(x)) {
		return
	}
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, float64(v))
	}
	var s float64
	if log {
		for _, v := range x {
			s += math.Exp(float64(v) - m)
		}
		ls := m + math.Log(s)
		for i, v := range x {
			d[i] = T(float64(v) - ls)
		}
		return
	}
	for i, v := range x {
		e := math.Exp(float64(v) - m)
		s += e
		d[i] = T(e)
	}
	inv := 1 / s
	for i := range d {
		d[i] = T(float64(d[i]) * inv)
	}
}

func init() {
	b := func(log bool) builder {
		return viaF32(func(c *buildCtx) (kernel, error) {
			if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
				return nil, err
			}
			a := c.rule.(*model.SoftmaxAttrs)
			if s := c.in[0].Shape; c.in[0].RankKnown && len(s) > 0 {
				if _, ok := normAxis(a.Axis, len(s)); !ok {
					return nil, c.invalid("axis %d out of range for rank %d", a.Axis, len(s))
				}
			}
			return &softmaxKernel{dt: c.inType(0), axis: a.Axis, coerce: a.Coerce, log: log, pool: c.pool()}, nil
		})
	}
	register("Softmax", b(false))
	register("LogSoftmax", b(true))
}
