package cpu

import (
	"unsafe"

	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// globalPoolKernel runs GlobalAveragePool, GlobalMaxPool and GlobalLpPool:
// one value per (N, C) plane, spatial dims kept as 1.
type globalPoolKernel struct {
	n      *model.Node
	dt     payload.DType
	kind   int
	p      float64
	planes int
	size   int
	// pool splits the planes; par and the call fields hold the current
	// call's split.
	pool      *workerPool
	par       parFor
	cin, cout []*tensor
	// maxOffs are float32 GlobalMaxPool's taps: the plane's 32-float
	// blocks.
	maxOffs []int
}

func init() {
	register("GlobalAveragePool", viaF32(buildGlobalPool))
	register("GlobalMaxPool", viaF32(buildGlobalPool))
	register("GlobalLpPool", viaF32(buildGlobalPool))
}

func buildGlobalPool(c *buildCtx) (kernel, error) {
	if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
		return nil, err
	}
	a := c.rule.(*model.GlobalPoolAttrs)
	return &globalPoolKernel{n: c.n, dt: c.inType(0), kind: a.Kind, p: a.P, pool: c.pool()}, nil
}

// shape plans the planes; the output's shape is the rule's
// (model.GlobalPoolAttrs). GlobalMaxPool has no value for an empty
// plane.
func (k *globalPoolKernel) shape(in, out []*tensor) error {
	x := in[0].shape
	k.planes, k.size = x[0]*x[1], 1
	for _, d := range x[2:] {
		k.size *= d
	}
	if k.size == 0 && k.kind == poolMax {
		return shapeErr(k.n, "input %v has empty spatial dims", x)
	}
	if k.kind == poolMax && k.dt == payload.Float32 && len(k.maxOffs) != k.size/32 {
		k.maxOffs = k.maxOffs[:0]
		for i := range k.size / 32 {
			k.maxOffs = append(k.maxOffs, 32*i)
		}
	}
	return nil
}

// globalMax32 returns GlobalMaxPool's value of plane x, as the running
// maximum from x[0] (a NaN there stays; later NaNs are skipped): the
// plane's 32-float blocks folded column by column from -Inf (offs their
// starts), then the columns and the tail.
func globalMax32(x []float32, offs []int) float32 {
	if x[0] != x[0] {
		return x[0]
	}
	m := float32(math.Inf(-1))
	n := 0
	if len(offs) > 0 {
		var acc [32]float32
		poolRowsMax(acc[:], x, offs, 32, 1, 32, 0, 1, 0, 0, m, false)
		for _, v := range acc {
			if v > m {
				m = v
			}
		}
		n = 32 * len(offs)
	}
	for _, v := range x[n:] {
		if v > m {
			m = v
		}
	}
	return m
}

func (k *globalPoolKernel) run(in, out []*tensor) error {
	k.cin, k.cout = in, out
	k.par.run(k.pool, k, k.planes, k.size)
	k.cin, k.cout = nil, nil
	return nil
}

// runRange pools planes [lo, hi) of the current call.
func (k *globalPoolKernel) runRange(_, lo, hi int) {
	switch k.dt {
	case payload.Float32:
		globalPoolRun(k, k.cin[0].f32(), k.cout[0].f32(), lo, hi)
	case payload.Float64:
		globalPoolRun(k, k.cin[0].f64(), k.cout[0].f64(), lo, hi)
	}
}

// globalPoolRun pools planes [lo, hi).
func globalPoolRun[E float32 | float64](k *globalPoolKernel, x, y []E, lo, hi int) {
	if k.kind == poolAvg && k.size > 0 && unsafe.Sizeof(x[0]) == 4 {
		avgPlanes32(f32s(y[lo:hi]), f32s(x[lo*k.size:hi*k.size]), k.size)
		return
	}
	for p := lo; p < hi; p++ {
		xp := x[p*k.size : (p+1)*k.size]
		switch k.kind {
		case poolMax:
			if unsafe.Sizeof(xp[0]) == 4 {
				y[p] = E(globalMax32(f32s(xp), k.maxOffs))
				continue
			}
			best := xp[0]
			for _, v := range xp[1:] {
				if v > best {
					best = v
				}
			}
			y[p] = best
		case poolAvg:
			var s float64
			if unsafe.Sizeof(xp[0]) == 4 {
				s = sum32(f32s(xp))
			} else {
				for _, v := range xp {
					s += float64(v)
				}
			}
			y[p] = E(s / float64(k.size))
			if k.size == 0 {
				y[p] = E(math.NaN())
			}
		default:
			var s float64
			for _, v := range xp {
				s += lpTerm(float64(v), k.p)
			}
			y[p] = E(lpRoot(s, k.p))
		}
	}
}

// avgPlanesGo sets y[p] to the mean of plane p of x (planes of size
// elements, size > 0), each sum by sum32.
func avgPlanesGo(y, x []float32, size int) {
	for p := range y {
		y[p] = float32(sum32(x[p*size:(p+1)*size]) / float64(size))
	}
}
