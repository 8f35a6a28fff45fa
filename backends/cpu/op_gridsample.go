package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// gridSampleKernel is GridSample on float32 or float64, any number of
// spatial dims, as ONNX's reference computes it (ONNX Runtime's CPU kernel
// agrees for 2-D): each grid point is denormalized per dim, moved inside
// the input by the padding mode, and its taps (1, 2 or 4 per dim) are
// combined. The taps of a point serve every channel.
type gridSampleKernel struct {
	a model.GridSampleAttrs
	// scratch: per spatial dim, up to 4 taps (index, weight) and their
	// count, then the odometer over them.
	idx []int
	w   []float64
	cnt []int
	ctr []int
}

func (k *gridSampleKernel) run(in, out []*tensor) error {
	x, g, y := in[0], in[1], out[0]
	nd := len(x.shape) - 2
	k.idx = growInts(&k.idx, 4*nd)
	k.w = growF64(&k.w, 4*nd)
	k.cnt = growInts(&k.cnt, nd)
	k.ctr = growInts(&k.ctr, nd)
	if y.numel() == 0 {
		return nil
	}
	if x.dt == payload.Float64 {
		gridSample(k, x.f64(), g.f64(), y.f64(), x.shape, y.shape)
	} else {
		gridSample(k, x.f32(), g.f32(), y.f32(), x.shape, y.shape)
	}
	return nil
}

func growF64(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n, n+4)
	}
	return (*buf)[:n]
}

func gridSample[T float32 | float64](k *gridSampleKernel, x, g, y []T, xs, ys []int) {
	nd := len(xs) - 2
	N, C := xs[0], xs[1]
	sp := mulDims(xs[2:]) // input elements per channel
	op := mulDims(ys[2:]) // output points per channel
	for n := 0; n < N; n++ {
		grid := g[n*op*nd : (n+1)*op*nd]
		xb := x[n*C*sp : (n+1)*C*sp]
		yb := y[n*C*op : (n+1)*C*op]
		for p := 0; p < op; p++ {
			pt := grid[p*nd : (p+1)*nd]
			for d := 0; d < nd; d++ {
				// grid holds the innermost spatial dim first.
				k.gsTaps(d, float64(pt[nd-1-d]), xs[2+d])
			}
			for c := 0; c < C; c++ {
				yb[c*op+p] = T(gsCombine(k, xb[c*sp:(c+1)*sp], xs[2:]))
			}
		}
	}
}

// gsCombine sums the taps' products over every combination of one tap
// per dim, reading plane (one channel's elements, dims ds).
func gsCombine[T float32 | float64](k *gridSampleKernel, plane []T, ds []int) float64 {
	nd := len(ds)
	ctr := k.ctr
	for d := range ctr {
		ctr[d] = 0
		if k.cnt[d] == 0 {
			return 0
		}
	}
	sum := 0.0
	for {
		off, w := 0, 1.0
		for d := 0; d < nd; d++ {
			off = off*ds[d] + k.idx[4*d+ctr[d]]
			w *= k.w[4*d+ctr[d]]
		}
		sum += w * float64(plane[off])
		d := nd - 1
		for ; d >= 0; d-- {
			ctr[d]++
			if ctr[d] < k.cnt[d] {
				break
			}
			ctr[d] = 0
		}
		if d < 0 {
			return sum
		}
	}
}

// gsTaps sets the taps of spatial dim d (of size n) for normalized
// coordinate v. A tap outside the input under zeros padding is dropped:
// it reads zero.
func (k *gridSampleKernel) gsTaps(d int, v float64, n int) {
	lo, hi := -0.5, float64(n)-0.5
	var x float64
	if k.a.AlignCorners {
		lo, hi = 0, float64(n-1)
		x = (v + 1) / 2 * float64(n-1)
	} else {
		x = ((v+1)*float64(n) - 1) / 2
	}
	if k.a.Mode == model.SampleNearest {
		x = math.RoundToEven(x)
	}
	if x < lo || x > hi {
		switch k.a.Padding {
		case model.SamplePadBorder:
			x = max(0, min(x, float64(n-1)))
		case model.SamplePadReflection:
			x = gsReflect(x, lo, hi)
		}
	}
	idx, w := k.idx[4*d:4*d+4], k.w[4*d:4*d+4]
	m := 0
	add := func(i int, wt float64) {
		switch k.a.Padding {
		case model.SamplePadZeros:
			if i < 0 || i >= n {
				return
			}
		case model.SamplePadBorder:
			i = max(0, min(i, n-1))
		default:
			i = max(0, min(int(gsReflect(float64(i), lo, hi)), n-1))
		}
		idx[m], w[m] = i, wt
		m++
	}
	switch k.a.Mode {
	case model.SampleNearest:
		add(floatIndex(x), 1)
	case model.SampleLinear:
		f := math.Floor(x)
		t := x - f
		i := floatIndex(f)
		add(i, 1-t)
		add(i+1, t)
	default:
		f := math.Floor(x)
		var cw [4]float64
		gsCubic(&cw, x-f)
		i := floatIndex(f)
		for q := 0; q < 4; q++ {
			add(i+q-1, cw[q])
		}
	}
	k.cnt[d] = m
}

// floatIndex converts a whole-number coordinate to an index; NaN and
// coordinates far outside any input map to a large negative index, which
// every padding mode then drops or clamps.
func floatIndex(f float64) int {
	if !(f > -1<<40 && f < 1<<40) {
		return -1 << 40
	}
	return int(f)
}

// gsReflect reflects x at lo and hi until it lies between them.
func gsReflect(x, lo, hi float64) float64 {
	rng := hi - lo
	if !(rng > 0) {
		return lo
	}
	switch {
	case x < lo:
		dx := lo - x
		n := math.Floor(dx / rng)
		r := dx - n*rng
		if math.Mod(n, 2) == 0 {
			return lo + r
		}
		return hi - r
	case x > hi:
		dx := x - hi
		n := math.Floor(dx / rng)
		r := dx - n*rng
		if math.Mod(n, 2) == 0 {
			return hi - r
		}
		return lo + r
	}
	return x
}

// gsCubic sets w to the cubic convolution weights (a = -0.75) of the four
// taps around fraction t.
func gsCubic(w *[4]float64, t float64) {
	const a = -0.75
	w[0] = ((a*(t+1)-5*a)*(t+1)+8*a)*(t+1) - 4*a
	w[1] = ((a+2)*t-(a+3))*t*t + 1
	w[2] = ((a+2)*(1-t)-(a+3))*(1-t)*(1-t) + 1
	w[3] = ((a*(2-t)-5*a)*(2-t)+8*a)*(2-t) - 4*a
}

func init() {
	register("GridSample", func(c *buildCtx) (kernel, error) {
		t := c.inType(0)
		if t != payload.Float32 && t != payload.Float64 {
			return nil, c.unsupported("element type %s (supported: float32, float64)", t)
		}
		if g := c.inType(1); g != t {
			return nil, c.unsupported("grid of type %s for X of type %s", g, t)
		}
		return &gridSampleKernel{a: *c.rule.(*model.GridSampleAttrs)}, nil
	})
}
