package gpu

import (
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	register(buildView, "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout")
	register(buildTranspose, "Transpose")
	register(buildExpand, "Expand")
	register(buildSlice, "Slice")
	register(buildConcat, "Concat")
	register(buildSplit, "Split")
	register(buildGather, "Gather")
}

// buildView makes the output a view of input 0's bytes: the shape changes,
// the bytes do not.
func buildView(c *buildCtx) error {
	if _, err := c.output(); err != nil {
		return err
	}
	if err := c.only(1); err != nil {
		return err
	}
	return c.view(0, 0)
}

// copyKernel returns the strided copy kernel for an element type.
func (c *buildCtx) copyKernel(dt payload.DType) (KernelID, error) {
	switch dt.Size() {
	case 4:
		return KCopy32, nil
	case 8:
		return KCopy64, nil
	case 1:
		return KCopy8, nil
	}
	return 0, c.unsupported("element type %s", dt)
}

// emitCopy launches y[outOff + idx·sout] = x[inOff + idx·sin] for every
// index idx of shape.
func (c *buildCtx) emitCopy(x, y *val, shape, sin, sout []int, inOff, outOff int) error {
	if err := c.rankOK(x, y); err != nil {
		return err
	}
	if len(shape) > MaxRank {
		return c.unsupported("rank %d", len(shape))
	}
	k, err := c.copyKernel(y.dt)
	if err != nil {
		return err
	}
	n := payload.NumElems(shape)
	if n == 0 {
		return nil
	}
	a := CopyArgs{N: u32(n), Rank: u32(len(shape)), InOff: int32(inOff), OutOff: int32(outOff)}
	fill(a.Shape[:], shape)
	fill(a.SIn[:], sin)
	fill(a.SOut[:], sout)
	c.emit1D(k, Pack(nil, &a), n, x, y)
	return nil
}

func buildTranspose(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	r := len(x.shape)
	def := make([]int64, r)
	for i := range def {
		def[i] = int64(r - 1 - i)
	}
	perm, err := c.n.Ints("perm", def)
	if err != nil {
		return err
	}
	if len(perm) != r {
		return c.invalid("perm %v for rank %d", perm, r)
	}
	xs := contiguousStrides(x.shape)
	sin := make([]int, r)
	seen := make([]bool, r)
	for i, p := range perm {
		if p < 0 || int(p) >= r || seen[p] {
			return c.invalid("perm %v", perm)
		}
		seen[p] = true
		sin[i] = xs[p]
	}
	return c.emitCopy(x, y, y.shape, sin, contiguousStrides(y.shape), 0, 0)
}

func buildExpand(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	sin, ok := broadcastStrides(x.shape, y.shape)
	if !ok {
		return c.invalid("shape %v does not broadcast to %v", x.shape, y.shape)
	}
	return c.emitCopy(x, y, y.shape, sin, contiguousStrides(y.shape), 0, 0)
}

func buildSlice(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	r := len(x.shape)
	var starts, ends, axes, steps []int64
	if c.opset < 10 {
		if starts, err = c.n.Ints("starts", nil); err != nil {
			return err
		}
		if ends, err = c.n.Ints("ends", nil); err != nil {
			return err
		}
		if axes, err = c.n.Ints("axes", nil); err != nil {
			return err
		}
	} else {
		if starts, err = c.constInts(1); err != nil {
			return err
		}
		if ends, err = c.constInts(2); err != nil {
			return err
		}
		if len(c.in) > 3 && c.in[3] != nil {
			if axes, err = c.constInts(3); err != nil {
				return err
			}
		}
		if len(c.in) > 4 && c.in[4] != nil {
			if steps, err = c.constInts(4); err != nil {
				return err
			}
		}
	}
	if len(ends) != len(starts) || (axes != nil && len(axes) != len(starts)) || (steps != nil && len(steps) != len(starts)) {
		return c.invalid("starts, ends, axes and steps differ in length")
	}
	xs := contiguousStrides(x.shape)
	start := make([]int, r)
	step := make([]int, r)
	count := append([]int{}, x.shape...)
	for i := range step {
		step[i] = 1
	}
	for i := range starts {
		ax := int64(i)
		if axes != nil {
			ax = axes[i]
		}
		a, err := c.axisOf(ax, r)
		if err != nil {
			return err
		}
		st := int64(1)
		if steps != nil {
			st = steps[i]
		}
		if st == 0 {
			return c.invalid("step 0 on axis %d", a)
		}
		d := int64(x.shape[a])
		s, e := starts[i], ends[i]
		if s < 0 {
			s += d
		}
		if e < 0 {
			e += d
		}
		if st > 0 {
			s, e = clamp(s, 0, d), clamp(e, 0, d)
		} else {
			s, e = clamp(s, 0, d-1), clamp(e, -1, d-1)
		}
		n := int64(0)
		if st > 0 && e > s {
			n = (e - s + st - 1) / st
		} else if st < 0 && s > e {
			n = (s - e - st - 1) / -st
		}
		start[a], step[a], count[a] = int(s), int(st), int(n)
	}
	if !sameShape(count, y.shape) {
		return c.invalid("slice of %v gives %v, inferred %v", x.shape, count, y.shape)
	}
	off := 0
	sin := make([]int, r)
	for i := range sin {
		off += start[i] * xs[i]
		sin[i] = step[i] * xs[i]
	}
	return c.emitCopy(x, y, y.shape, sin, contiguousStrides(y.shape), off, 0)
}

func clamp(v, lo, hi int64) int64 { return max(lo, min(v, hi)) }

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func buildConcat(c *buildCtx) error {
	y, err := c.output()
	if err != nil {
		return err
	}
	ax, err := c.n.Int("axis", 0)
	if err != nil {
		return err
	}
	a, err := c.axisOf(ax, len(y.shape))
	if err != nil {
		return err
	}
	ys := contiguousStrides(y.shape)
	at := 0
	for _, x := range c.in {
		if x == nil {
			continue
		}
		if x.dt != y.dt || len(x.shape) != len(y.shape) {
			return c.invalid("input %q does not match the output", x.name)
		}
		if err := c.emitCopy(x, y, x.shape, contiguousStrides(x.shape), ys, 0, at*ys[a]); err != nil {
			return err
		}
		at += x.shape[a]
	}
	if at != y.shape[a] {
		return c.invalid("inputs sum to %d along axis %d, output has %d", at, a, y.shape[a])
	}
	return nil
}

func buildSplit(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	ax, err := c.n.Int("axis", 0)
	if err != nil {
		return err
	}
	a, err := c.axisOf(ax, len(x.shape))
	if err != nil {
		return err
	}
	xs := contiguousStrides(x.shape)
	at := 0
	for _, y := range c.out {
		if y == nil {
			// An unused output still takes its share of the axis, which
			// shape inference knows; without it the split is unknown.
			return c.unsupported("an unused output of Split")
		}
		if len(y.shape) != len(x.shape) {
			return c.invalid("output %q has rank %d, input %d", y.name, len(y.shape), len(x.shape))
		}
		if err := c.emitCopy(x, y, y.shape, xs, contiguousStrides(y.shape), at*xs[a], 0); err != nil {
			return err
		}
		at += y.shape[a]
	}
	if at != x.shape[a] {
		return c.invalid("outputs sum to %d along axis %d, input has %d", at, a, x.shape[a])
	}
	return nil
}

func buildGather(c *buildCtx) error {
	x, err := c.input(0)
	if err != nil {
		return err
	}
	idx, err := c.input(1)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	if err := c.want(x, payload.Float32); err != nil {
		return err
	}
	if err := c.want(idx, payload.Int32, payload.Int64); err != nil {
		return err
	}
	ax, err := c.n.Int("axis", 0)
	if err != nil {
		return err
	}
	a, err := c.axisOf(ax, len(x.shape))
	if err != nil {
		return err
	}
	_, mid, inner := splitAt(x.shape, a)
	nidx := idx.numel()
	ga := GatherArgs{N: u32(y.numel()), AxisLen: u32(mid), Inner: u32(inner), NIdx: u32(max(nidx, 1))}
	if idx.dt == payload.Int64 {
		ga.Idx64 = 1
	}
	if y.numel() == 0 {
		return nil
	}
	c.emit1D(KGather, Pack(nil, &ga), y.numel(), x, idx, y)
	return nil
}
