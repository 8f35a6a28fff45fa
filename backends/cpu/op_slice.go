package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
)

// sliceKernel is Slice: starts, ends, axes and steps come from attributes
// (opsets before 10) or inputs 1 to 4. The descriptor's rule
// (model.SliceAttrs) sets the output shape; run plans the copy again
// from the same parameters.
type sliceKernel struct {
	n    *model.Node
	attr *model.SliceAttrs

	bufs  [4][]int64
	start []int
	step  []int
	mark  []int
	ist   []int
	p     stridedCopy
	// pool splits the copy's rows through pc.
	pool *workerPool
	pc   parCopy
}

// plan computes the output shape into dims and the per-axis start and step
// into k.start and k.step.
func (k *sliceKernel) plan(in []*tensor, dims []int) error {
	x := in[0]
	r := len(x.shape)
	var starts, ends, axes, steps []int64
	if k.attr.Attrs {
		starts, ends, axes = k.attr.Starts, k.attr.Ends, k.attr.Axes
	} else {
		var v [4][]int64
		for i := 0; i < 4; i++ {
			t := optIn(in, i+1)
			if t == nil {
				continue
			}
			var ok bool
			v[i], ok = intValues(t, &k.bufs[i])
			if !ok || len(t.shape) != 1 {
				return shapeErr(k.n, "input %d must be a 1-D int32 or int64 tensor", i+1)
			}
		}
		starts, ends, axes, steps = v[0], v[1], v[2], v[3]
		if starts == nil || ends == nil {
			return shapeErr(k.n, "starts and ends are required")
		}
	}
	m := len(starts)
	if len(ends) != m || (axes != nil && len(axes) != m) || (steps != nil && len(steps) != m) {
		return shapeErr(k.n, "starts, ends, axes and steps differ in length")
	}
	k.start = growInts(&k.start, r)
	k.step = growInts(&k.step, r)
	mark := growInts(&k.mark, r)
	for i := 0; i < r; i++ {
		dims[i] = x.shape[i]
		k.start[i] = 0
		k.step[i] = 1
		mark[i] = 0
	}
	for i := 0; i < m; i++ {
		ax := i
		if axes != nil {
			var ok bool
			if ax, ok = wrapAxis(axes[i], r); !ok {
				return shapeErr(k.n, "axis %d out of range for rank %d", axes[i], r)
			}
		} else if i >= r {
			return shapeErr(k.n, "%d starts for rank %d", m, r)
		}
		if mark[ax] != 0 {
			return shapeErr(k.n, "axis %d repeated", ax)
		}
		mark[ax] = 1
		step := int64(1)
		if steps != nil {
			step = steps[i]
		}
		if step == 0 {
			return shapeErr(k.n, "step 0 on axis %d", ax)
		}
		d := int64(x.shape[ax])
		s, e := clampSlice(starts[i], ends[i], step, d)
		var n int64
		switch {
		case d == 0:
		case step > 0 && e > s:
			n = (e-s-1)/step + 1
		case step < 0 && s > e:
			if step == math.MinInt64 {
				n = 1
			} else {
				n = (s-e-1)/(-step) + 1
			}
		}
		dims[ax] = int(n)
		k.start[ax] = int(s)
		if step > int64(maxDim) {
			step = int64(maxDim)
		} else if step < -int64(maxDim) {
			step = -int64(maxDim)
		}
		k.step[ax] = int(step)
	}
	return nil
}

// clampSlice applies the Slice spec's rules to start and end on a dim of
// size d: negatives count from the end, then both are clamped to [0, d]
// for positive steps and to [0, d-1] and [-1, d-1] for negative ones.
func clampSlice(s, e, step, d int64) (int64, int64) {
	if s < 0 {
		s += d
	}
	if e < 0 {
		e += d
	}
	if step > 0 {
		s = max(0, min(s, d))
		e = max(0, min(e, d))
	} else {
		s = max(0, min(s, d-1))
		e = max(-1, min(e, d-1))
	}
	return s, e
}

func (k *sliceKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	r := len(x.shape)
	dims, st := k.p.reset(r)
	if err := k.plan(in, dims); err != nil {
		return err
	}
	k.ist = growInts(&k.ist, r)
	rowStrides(k.ist, x.shape)
	off := 0
	for i := 0; i < r; i++ {
		if dims[i] == 0 {
			return nil
		}
		off += k.start[i] * k.ist[i]
		if dims[i] == 1 {
			st[i] = 0
		} else {
			st[i] = k.step[i] * k.ist[i]
		}
	}
	k.pc.copy(k.pool, &k.p, y.data, x.data, x.dt.Size(), off)
	return nil
}

func init() {
	register("Slice", func(c *buildCtx) (kernel, error) {
		if err := c.needMovable(); err != nil {
			return nil, err
		}
		for i := 1; i <= 4; i++ {
			if !c.intInputOK(i, true) {
				return nil, c.unsupported("input %d of type %s", i, c.inType(i))
			}
		}
		return &sliceKernel{n: c.n, attr: c.rule.(*model.SliceAttrs), pool: c.pool()}, nil
	})
}
