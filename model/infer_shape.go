package model

import "math"

func (c *inferCtx) reshape() (ValueInfo, error) {
	dt := c.dt(0)
	allowZero, err := c.n.Int("allowzero", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	vals, ok, err := c.ints(1)
	if err != nil {
		return ValueInfo{}, err
	}
	if !ok {
		if l := c.vecLen(1); l >= 0 {
			if err := c.checkRank(int64(l)); err != nil {
				return ValueInfo{}, err
			}
			return ranked(dt, unknownDims(l)), nil
		}
		return unranked(dt), nil
	}
	if err := c.checkRank(int64(len(vals))); err != nil {
		return ValueInfo{}, err
	}
	in, inKnown := c.shape(0)
	out := make([]int, len(vals))
	infer := -1
	for i, x := range vals {
		switch {
		case x == -1:
			if infer >= 0 {
				return ValueInfo{}, c.errf("shape %v has more than one -1", vals)
			}
			infer = i
			out[i] = -1
		case x == 0 && allowZero == 0:
			switch {
			case !inKnown:
				out[i] = -1
			case i >= len(in):
				return ValueInfo{}, c.errf("shape %v copies dim %d of a rank-%d input", vals, i, len(in))
			default:
				out[i] = in[i]
			}
		case x < 0:
			return ValueInfo{}, c.errf("shape %v has a negative dim", vals)
		default:
			if out[i], err = c.dim(x, "shape"); err != nil {
				return ValueInfo{}, err
			}
		}
	}
	if allowZero != 0 && infer >= 0 {
		for _, x := range vals {
			if x == 0 {
				return ValueInfo{}, c.errf("shape %v has both 0 and -1 with allowzero", vals)
			}
		}
	}
	total, totalKnown, err := prodDims(in)
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	totalKnown = totalKnown && inKnown
	rest := make([]int, 0, len(out))
	for i, d := range out {
		if i != infer {
			rest = append(rest, d)
		}
	}
	p, pKnown, err := prodDims(rest)
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	if infer >= 0 {
		if totalKnown && pKnown {
			if p == 0 || total%p != 0 {
				if !(p == 0 && total == 0) {
					return ValueInfo{}, c.errf("cannot reshape %v to %v", in, vals)
				}
				out[infer] = -1
			} else {
				out[infer] = total / p
			}
		}
	} else if totalKnown && pKnown && total != p {
		return ValueInfo{}, c.errf("cannot reshape %v (%d elements) to %v", in, total, vals)
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) flatten() (ValueInfo, error) {
	dt := c.dt(0)
	a, err := c.n.Int("axis", 1)
	if err != nil {
		return ValueInfo{}, err
	}
	s, ok := c.shape(0)
	if !ok {
		return ranked(dt, []int{-1, -1}), nil
	}
	if a < -int64(len(s)) || a > int64(len(s)) {
		return ValueInfo{}, c.errf("axis %d out of range for rank %d", a, len(s))
	}
	if a < 0 {
		a += int64(len(s))
	}
	p0, _, err := prodDims(s[:a])
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	p1, _, err := prodDims(s[a:])
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	return ranked(dt, []int{p0, p1}), nil
}

// axesArg reads an axes list that is an attribute before opset `since`
// and input 1 from it. ok is false when it is a non-constant input.
func (c *inferCtx) axesArg(since int64) (axes []int64, present, ok bool, err error) {
	if c.opset < since {
		a := c.n.Attr("axes")
		if a == nil {
			return nil, false, true, nil
		}
		axes, err = c.n.Ints("axes", nil)
		return axes, true, true, err
	}
	if c.n.Input(1) == "" {
		return nil, false, true, nil
	}
	axes, ok, err = c.ints(1)
	return axes, true, ok, err
}

func (c *inferCtx) squeeze() (ValueInfo, error) {
	dt := c.dt(0)
	axes, present, ok, err := c.axesArg(13)
	if err != nil {
		return ValueInfo{}, err
	}
	s, known := c.shape(0)
	if !known || !ok {
		if known && c.vecLen(1) >= 0 && c.vecLen(1) <= len(s) {
			return ranked(dt, unknownDims(len(s)-c.vecLen(1))), nil
		}
		return unranked(dt), nil
	}
	drop := make([]bool, len(s))
	if !present {
		for i, d := range s {
			if d < 0 {
				return unranked(dt), nil
			}
			drop[i] = d == 1
		}
	} else {
		ax, err := c.axes(axes, len(s))
		if err != nil {
			return ValueInfo{}, err
		}
		for _, a := range ax {
			if s[a] > 1 || s[a] == 0 {
				return ValueInfo{}, c.errf("cannot squeeze axis %d of shape %v", a, s)
			}
			drop[a] = true
		}
	}
	out := []int{}
	for i, d := range s {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) unsqueeze() (ValueInfo, error) {
	dt := c.dt(0)
	axes, present, ok, err := c.axesArg(13)
	if err != nil {
		return ValueInfo{}, err
	}
	s, known := c.shape(0)
	if !known {
		return unranked(dt), nil
	}
	if !ok {
		if l := c.vecLen(1); l >= 0 {
			if err := c.checkRank(int64(len(s) + l)); err != nil {
				return ValueInfo{}, err
			}
			return ranked(dt, unknownDims(len(s)+l)), nil
		}
		return unranked(dt), nil
	}
	if !present {
		return ValueInfo{}, c.errf("axes missing")
	}
	r := len(s) + len(axes)
	if err := c.checkRank(int64(r)); err != nil {
		return ValueInfo{}, err
	}
	ax, err := c.axes(axes, r)
	if err != nil {
		return ValueInfo{}, err
	}
	ins := make([]bool, r)
	for _, a := range ax {
		ins[a] = true
	}
	out := make([]int, r)
	j := 0
	for i := range out {
		if ins[i] {
			out[i] = 1
		} else {
			out[i] = s[j]
			j++
		}
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) transpose() (ValueInfo, error) {
	dt := c.dt(0)
	perm, err := c.n.Ints("perm", nil)
	if err != nil {
		return ValueInfo{}, err
	}
	s, known := c.shape(0)
	if !known {
		if perm != nil {
			if err := c.checkRank(int64(len(perm))); err != nil {
				return ValueInfo{}, err
			}
			return ranked(dt, unknownDims(len(perm))), nil
		}
		return unranked(dt), nil
	}
	if perm == nil {
		perm = make([]int64, len(s))
		for i := range perm {
			perm[i] = int64(len(s) - 1 - i)
		}
	}
	if len(perm) != len(s) {
		return ValueInfo{}, c.errf("perm %v for rank %d", perm, len(s))
	}
	ax, err := c.axes(perm, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	out := make([]int, len(s))
	for i, a := range ax {
		out[i] = s[a]
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) concat() (ValueInfo, error) {
	dt := c.dt(0)
	a, err := c.n.Int("axis", math.MinInt64)
	if err != nil {
		return ValueInfo{}, err
	}
	if a == math.MinInt64 {
		return ValueInfo{}, c.errf("attribute \"axis\" missing")
	}
	var out []int
	axis := -1
	sum := 0
	for i, name := range c.n.Inputs {
		if name == "" {
			continue
		}
		s, known := c.shape(i)
		if !known {
			sum = -1
			continue
		}
		if out == nil {
			if axis, err = c.axis(a, len(s)); err != nil {
				return ValueInfo{}, err
			}
			out = copyDims(s)
			out[axis] = -1
		} else if len(s) != len(out) {
			return ValueInfo{}, c.errf("inputs of ranks %d and %d", len(out), len(s))
		}
		for j, d := range s {
			if j == axis {
				continue
			}
			switch {
			case out[j] < 0:
				out[j] = d
			case d >= 0 && d != out[j]:
				return ValueInfo{}, c.errf("input %d has shape %v, others dim %d = %d", i, s, j, out[j])
			}
		}
		if sum >= 0 {
			if s[axis] < 0 {
				sum = -1
			} else if x, ok := addDim(int64(sum), int64(s[axis])); ok {
				sum = int(x)
			} else {
				return ValueInfo{}, c.errf("concatenated dim overflows")
			}
		}
	}
	if out == nil {
		return unranked(dt), nil
	}
	out[axis] = sum
	return ranked(dt, out), nil
}

func (c *inferCtx) split() ([]ValueInfo, error) {
	n := c.n
	outs := make([]ValueInfo, len(n.Outputs))
	dt := c.dt(0)
	for i := range outs {
		outs[i] = unranked(dt)
	}
	if len(outs) == 0 {
		return outs, nil
	}
	a, err := n.Int("axis", 0)
	if err != nil {
		return nil, err
	}
	var split []int64
	splitKnown := true
	if c.opset < 13 {
		split, err = n.Ints("split", nil)
	} else if n.Input(1) != "" {
		split, splitKnown, err = c.ints(1)
	}
	if err != nil {
		return nil, err
	}
	numOut, err := n.Int("num_outputs", 0)
	if err != nil {
		return nil, err
	}
	s, known := c.shape(0)
	if !known {
		return outs, nil
	}
	ax, err := c.axis(a, len(s))
	if err != nil {
		return nil, err
	}
	dims := make([]int, len(outs))
	switch {
	case !splitKnown:
		for i := range dims {
			dims[i] = -1
		}
	case split != nil:
		if len(split) != len(outs) {
			return nil, c.errf("split %v for %d outputs", split, len(outs))
		}
		total := int64(0)
		for i, x := range split {
			if dims[i], err = c.dim(x, "split"); err != nil {
				return nil, err
			}
			var ok bool
			if total, ok = addDim(total, x); !ok {
				return nil, c.errf("split %v overflows", split)
			}
		}
		if s[ax] >= 0 && total != int64(s[ax]) {
			return nil, c.errf("split %v of dim %d", split, s[ax])
		}
	default:
		k := len(outs)
		if numOut > 0 && numOut != int64(k) {
			return nil, c.errf("num_outputs %d with %d outputs", numOut, k)
		}
		d := s[ax]
		for i := range dims {
			dims[i] = -1
		}
		if d >= 0 {
			if numOut > 0 {
				chunk := (d + k - 1) / k
				left := d
				for i := range dims {
					dims[i] = min(chunk, left)
					left -= dims[i]
				}
			} else {
				if d%k != 0 {
					return nil, c.errf("dim %d does not split evenly into %d", d, k)
				}
				for i := range dims {
					dims[i] = d / k
				}
			}
		}
	}
	for i := range outs {
		o := copyDims(s)
		o[ax] = dims[i]
		outs[i] = ranked(dt, o)
	}
	return outs, nil
}

// sliceLen returns the length of a slice of a dim of size d.
func sliceLen(d, start, end, step int64) int64 {
	if step > 0 {
		if start < 0 {
			start += d
		}
		if end < 0 {
			end += d
		}
		start = min(max(start, 0), d)
		end = min(max(end, 0), d)
		if end <= start {
			return 0
		}
		return (end-start-1)/step + 1
	}
	if start < 0 {
		start += d
	}
	if end < 0 {
		end += d
	}
	start = min(max(start, 0), d-1)
	end = min(max(end, -1), d-1)
	if start <= end {
		return 0
	}
	// step may be MinInt64: compute with uint64.
	return int64((uint64(start-end)-1)/uint64(-(step+1)+1) + 1)
}

func (c *inferCtx) slice() (ValueInfo, error) {
	dt := c.dt(0)
	s, known := c.shape(0)
	if !known {
		return unranked(dt), nil
	}
	var starts, ends, axes, steps []int64
	allConst := true
	if c.opset < 10 {
		var err error
		if starts, err = c.n.Ints("starts", nil); err != nil {
			return ValueInfo{}, err
		}
		if ends, err = c.n.Ints("ends", nil); err != nil {
			return ValueInfo{}, err
		}
		if axes, err = c.n.Ints("axes", nil); err != nil {
			return ValueInfo{}, err
		}
	} else {
		for i, p := range []*[]int64{&starts, &ends, &axes, &steps} {
			if c.n.Input(i+1) == "" {
				continue
			}
			v, ok, err := c.ints(i + 1)
			if err != nil {
				return ValueInfo{}, err
			}
			if !ok {
				allConst = false
			}
			*p = v
		}
	}
	if !allConst {
		if axes == nil && c.n.Input(3) != "" {
			return ranked(dt, unknownDims(len(s))), nil
		}
		// The axes are known: only they change.
		ax := axes
		if ax == nil {
			ax = make([]int64, len(s))
			for i := range ax {
				ax[i] = int64(i)
			}
			if l := c.vecLen(1); l >= 0 && l <= len(s) {
				ax = ax[:l]
			}
		}
		na, err := c.axes(ax, len(s))
		if err != nil {
			return ValueInfo{}, err
		}
		for _, a := range na {
			s[a] = -1
		}
		return ranked(dt, s), nil
	}
	if len(starts) != len(ends) {
		return ValueInfo{}, c.errf("%d starts and %d ends", len(starts), len(ends))
	}
	if axes == nil {
		if len(starts) > len(s) {
			return ValueInfo{}, c.errf("%d starts for rank %d", len(starts), len(s))
		}
		axes = make([]int64, len(starts))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if steps == nil {
		steps = make([]int64, len(starts))
		for i := range steps {
			steps[i] = 1
		}
	}
	if len(axes) != len(starts) || len(steps) != len(starts) {
		return ValueInfo{}, c.errf("%d starts, %d axes, %d steps", len(starts), len(axes), len(steps))
	}
	ax, err := c.axes(axes, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	for i, a := range ax {
		if steps[i] == 0 {
			return ValueInfo{}, c.errf("step 0")
		}
		if s[a] < 0 {
			continue
		}
		s[a] = int(sliceLen(int64(s[a]), starts[i], ends[i], steps[i]))
	}
	return ranked(dt, s), nil
}

func (c *inferCtx) gather() (ValueInfo, error) {
	dt := c.dt(0)
	a, err := c.n.Int("axis", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	s, ok1 := c.shape(0)
	idx, ok2 := c.shape(1)
	if !ok1 || !ok2 {
		return unranked(dt), nil
	}
	ax, err := c.axis(a, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	if err := c.checkRank(int64(len(s) - 1 + len(idx))); err != nil {
		return ValueInfo{}, err
	}
	out := append(append(append([]int{}, s[:ax]...), idx...), s[ax+1:]...)
	return ranked(dt, out), nil
}

// shapeInput reads constant shape input i as dims.
func (c *inferCtx) shapeInput(i int) ([]int, bool, error) {
	vals, ok, err := c.ints(i)
	if err != nil || !ok {
		return nil, false, err
	}
	if err := c.checkRank(int64(len(vals))); err != nil {
		return nil, false, err
	}
	out := make([]int, len(vals))
	for j, x := range vals {
		if out[j], err = c.dim(x, "shape"); err != nil {
			return nil, false, err
		}
	}
	return out, true, nil
}

func (c *inferCtx) expand() (ValueInfo, error) {
	dt := c.dt(0)
	shp, ok, err := c.shapeInput(1)
	if err != nil {
		return ValueInfo{}, err
	}
	s, known := c.shape(0)
	if !ok {
		if l := c.vecLen(1); l >= 0 && known {
			if err := c.checkRank(int64(l)); err != nil {
				return ValueInfo{}, err
			}
			return ranked(dt, unknownDims(max(l, len(s)))), nil
		}
		return unranked(dt), nil
	}
	if !known {
		return unranked(dt), nil
	}
	out, err := broadcastDims(s, shp)
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) tile() (ValueInfo, error) {
	dt := c.dt(0)
	s, known := c.shape(0)
	if !known {
		return unranked(dt), nil
	}
	reps, ok, err := c.ints(1)
	if err != nil {
		return ValueInfo{}, err
	}
	if !ok {
		return ranked(dt, unknownDims(len(s))), nil
	}
	if len(reps) != len(s) {
		return ValueInfo{}, c.errf("%d repeats for rank %d", len(reps), len(s))
	}
	for i, r := range reps {
		if r < 0 {
			return ValueInfo{}, c.errf("negative repeat %d", r)
		}
		if s[i] < 0 {
			if r == 0 {
				s[i] = 0
			}
			continue
		}
		x, ok := mulDim(int64(s[i]), r)
		if !ok {
			return ValueInfo{}, c.errf("tiled dim overflows")
		}
		s[i] = int(x)
	}
	return ranked(dt, s), nil
}

func (c *inferCtx) pad() (ValueInfo, error) {
	dt := c.dt(0)
	s, known := c.shape(0)
	if !known {
		return unranked(dt), nil
	}
	var pads, axes []int64
	if c.opset < 11 {
		var err error
		if pads, err = c.n.Ints("pads", nil); err != nil {
			return ValueInfo{}, err
		}
		if pads == nil {
			return ValueInfo{}, c.errf("attribute \"pads\" missing")
		}
	} else {
		var ok bool
		var err error
		if pads, ok, err = c.ints(1); err != nil {
			return ValueInfo{}, err
		}
		if !ok {
			return ranked(dt, unknownDims(len(s))), nil
		}
		if c.n.Input(3) != "" {
			if axes, ok, err = c.ints(3); err != nil {
				return ValueInfo{}, err
			}
			if !ok {
				return ranked(dt, unknownDims(len(s))), nil
			}
		}
	}
	if axes == nil {
		axes = make([]int64, len(s))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if len(pads) != 2*len(axes) {
		return ValueInfo{}, c.errf("%d pads for %d axes", len(pads), len(axes))
	}
	ax, err := c.axes(axes, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	for i, a := range ax {
		if s[a] < 0 {
			continue
		}
		x, ok1 := addDim(int64(s[a]), pads[i])
		y, ok2 := addDim(x, pads[i+len(ax)])
		if !ok1 || !ok2 || y < 0 {
			return ValueInfo{}, c.errf("padding dim %d of %v by %d, %d", a, s, pads[i], pads[i+len(ax)])
		}
		s[a] = int(y)
	}
	return ranked(dt, s), nil
}

func (c *inferCtx) resize() (ValueInfo, error) {
	dt := c.dt(0)
	s, known := c.shape(0)
	if !known {
		return unranked(dt), nil
	}
	// Where the scales and sizes are.
	scalesIdx, sizesIdx := -1, -1
	switch {
	case c.n.OpType == "Upsample" && c.opset < 9:
		fs, err := c.n.Floats("scales", nil)
		if err != nil {
			return ValueInfo{}, err
		}
		return c.scaled(s, toF64(fs), nil)
	case c.n.OpType == "Upsample" || c.opset < 11:
		scalesIdx = 1
	default:
		scalesIdx, sizesIdx = 2, 3
	}
	var axes []int64
	if c.opset >= 18 && c.n.OpType == "Resize" {
		var err error
		if axes, err = c.n.Ints("axes", nil); err != nil {
			return ValueInfo{}, err
		}
	}
	if sizesIdx >= 0 && c.n.Input(sizesIdx) != "" {
		sizes, ok, err := c.ints(sizesIdx)
		if err != nil {
			return ValueInfo{}, err
		}
		ax, err := c.resizeAxes(axes, len(s))
		if err != nil {
			return ValueInfo{}, err
		}
		if !ok {
			for _, a := range ax {
				s[a] = -1
			}
			return ranked(dt, s), nil
		}
		if len(sizes) != len(ax) {
			return ValueInfo{}, c.errf("%d sizes for %d axes", len(sizes), len(ax))
		}
		policy, err := c.n.String("keep_aspect_ratio_policy", "stretch")
		if err != nil {
			return ValueInfo{}, err
		}
		if policy == "stretch" || c.opset < 18 {
			for i, a := range ax {
				if s[a], err = c.dim(sizes[i], "sizes"); err != nil {
					return ValueInfo{}, err
				}
			}
			return ranked(dt, s), nil
		}
		scale := math.Inf(1)
		if policy == "not_smaller" {
			scale = math.Inf(-1)
		}
		for i, a := range ax {
			if sizes[i] < 0 {
				return ValueInfo{}, c.errf("negative size %d", sizes[i])
			}
			if s[a] <= 0 {
				for _, a := range ax {
					s[a] = -1
				}
				return ranked(dt, s), nil
			}
			r := float64(sizes[i]) / float64(s[a])
			if policy == "not_smaller" {
				scale = max(scale, r)
			} else {
				scale = min(scale, r)
			}
		}
		for _, a := range ax {
			s[a] = int(math.RoundToEven(scale * float64(s[a])))
		}
		return ranked(dt, s), nil
	}
	if scalesIdx < 0 || c.n.Input(scalesIdx) == "" {
		return ValueInfo{}, c.errf("neither scales nor sizes given")
	}
	scales, ok, err := c.floats(scalesIdx)
	if err != nil {
		return ValueInfo{}, err
	}
	if !ok {
		ax, err := c.resizeAxes(axes, len(s))
		if err != nil {
			return ValueInfo{}, err
		}
		for _, a := range ax {
			s[a] = -1
		}
		return ranked(dt, s), nil
	}
	if len(scales) == 0 && sizesIdx >= 0 && c.n.Input(sizesIdx) == "" {
		return ValueInfo{}, c.errf("neither scales nor sizes given")
	}
	return c.scaled(s, scales, axes)
}

func (c *inferCtx) resizeAxes(axes []int64, r int) ([]int, error) {
	if axes == nil {
		ax := make([]int, r)
		for i := range ax {
			ax[i] = i
		}
		return ax, nil
	}
	return c.axes(axes, r)
}

func toF64(f []float32) []float64 {
	out := make([]float64, len(f))
	for i, x := range f {
		out[i] = float64(x)
	}
	return out
}

// scaled applies Resize's scales to s.
func (c *inferCtx) scaled(s []int, scales []float64, axes []int64) (ValueInfo, error) {
	dt := c.dt(0)
	ax, err := c.resizeAxes(axes, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	if len(scales) != len(ax) {
		return ValueInfo{}, c.errf("%d scales for %d axes", len(scales), len(ax))
	}
	crop := false
	if c.n.OpType == "Resize" {
		m, err := c.n.String("coordinate_transformation_mode", "half_pixel")
		if err != nil {
			return ValueInfo{}, err
		}
		crop = m == "tf_crop_and_resize"
	}
	for i, a := range ax {
		sc := scales[i]
		if !(sc > 0) || math.IsInf(sc, 0) {
			return ValueInfo{}, c.errf("scale %v", sc)
		}
		if s[a] < 0 || crop {
			s[a] = -1
			continue
		}
		x := math.Floor(float64(s[a]) * sc)
		if x > 1<<50 {
			return ValueInfo{}, c.errf("scaled dim %v too large", x)
		}
		s[a] = int(x)
	}
	return ranked(dt, s), nil
}

func (c *inferCtx) depthSpace() (ValueInfo, error) {
	dt := c.dt(0)
	b, err := c.n.Int("blocksize", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	if b <= 0 || b > 1<<20 {
		return ValueInfo{}, c.errf("blocksize %d", b)
	}
	s, known := c.shape(0)
	if !known {
		return ranked(dt, unknownDims(4)), nil
	}
	if len(s) != 4 {
		return ValueInfo{}, c.errf("input rank %d, want 4", len(s))
	}
	bb := int(b * b)
	mul := func(d, k int) (int, error) {
		if d < 0 {
			return -1, nil
		}
		x, ok := mulDim(int64(d), int64(k))
		if !ok {
			return 0, c.errf("dim overflows")
		}
		return int(x), nil
	}
	div := func(d, k int) (int, error) {
		if d < 0 {
			return -1, nil
		}
		if d%k != 0 {
			return 0, c.errf("dim %d not divisible by %d", d, k)
		}
		return d / k, nil
	}
	out := []int{s[0], 0, 0, 0}
	if c.n.OpType == "DepthToSpace" {
		if out[1], err = div(s[1], bb); err != nil {
			return ValueInfo{}, err
		}
		if out[2], err = mul(s[2], int(b)); err != nil {
			return ValueInfo{}, err
		}
		if out[3], err = mul(s[3], int(b)); err != nil {
			return ValueInfo{}, err
		}
	} else {
		if out[1], err = mul(s[1], bb); err != nil {
			return ValueInfo{}, err
		}
		if out[2], err = div(s[2], int(b)); err != nil {
			return ValueInfo{}, err
		}
		if out[3], err = div(s[3], int(b)); err != nil {
			return ValueInfo{}, err
		}
	}
	return ranked(dt, out), nil
}

// mergeDim unifies two sizes of one dim; ok false on conflict.
func mergeDim(a, b int) (int, bool) {
	switch {
	case a < 0:
		return b, true
	case b < 0 || a == b:
		return a, true
	}
	return 0, false
}

func (c *inferCtx) matmul() (ValueInfo, error) {
	dt := c.dt(0)
	a, ok1 := c.shape(0)
	b, ok2 := c.shape(1)
	if !ok1 || !ok2 {
		return unranked(dt), nil
	}
	if len(a) == 0 || len(b) == 0 {
		return ValueInfo{}, c.errf("scalar operand")
	}
	pa, pb := len(a) == 1, len(b) == 1
	if pa {
		a = []int{1, a[0]}
	}
	if pb {
		b = []int{b[0], 1}
	}
	if _, ok := mergeDim(a[len(a)-1], b[len(b)-2]); !ok {
		return ValueInfo{}, c.errf("shapes %v and %v do not multiply", a, b)
	}
	batch, err := broadcastDims(a[:len(a)-2], b[:len(b)-2])
	if err != nil {
		return ValueInfo{}, c.errf("%v", err)
	}
	out := batch
	if !pa {
		out = append(out, a[len(a)-2])
	}
	if !pb {
		out = append(out, b[len(b)-1])
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) gemm() (ValueInfo, error) {
	dt := c.dt(0)
	ta, err := c.n.Int("transA", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	tb, err := c.n.Int("transB", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	m, k1, k2, n := -1, -1, -1, -1
	if a, ok := c.shape(0); ok {
		if len(a) != 2 {
			return ValueInfo{}, c.errf("A has rank %d", len(a))
		}
		m, k1 = a[0], a[1]
		if ta != 0 {
			m, k1 = k1, m
		}
	}
	if b, ok := c.shape(1); ok {
		if len(b) != 2 {
			return ValueInfo{}, c.errf("B has rank %d", len(b))
		}
		k2, n = b[0], b[1]
		if tb != 0 {
			k2, n = n, k2
		}
	}
	if _, ok := mergeDim(k1, k2); !ok {
		return ValueInfo{}, c.errf("inner dims %d and %d differ", k1, k2)
	}
	if cs, ok := c.shape(2); ok {
		if _, err := broadcastDims(cs, []int{m, n}); err != nil || len(cs) > 2 {
			return ValueInfo{}, c.errf("C of shape %v does not broadcast to [%d %d]", cs, m, n)
		}
	}
	return ranked(dt, []int{m, n}), nil
}

// windowAttrs reads the spatial attributes of conv and pool ops for k
// spatial dims.
type windowAttrs struct {
	kernel, strides, dilations, pads []int64
	autoPad                          string
	ceil                             bool
}

func (c *inferCtx) window(k int, kernel []int64) (*windowAttrs, error) {
	n := c.n
	w := &windowAttrs{kernel: kernel}
	var err error
	get := func(name string, def int64, size int) ([]int64, error) {
		v, err := n.Ints(name, nil)
		if err != nil {
			return nil, err
		}
		if v == nil {
			v = make([]int64, size)
			for i := range v {
				v[i] = def
			}
		}
		if len(v) != size {
			return nil, c.errf("attribute %q has %d values, want %d", name, len(v), size)
		}
		return v, nil
	}
	if w.strides, err = get("strides", 1, k); err != nil {
		return nil, err
	}
	if w.dilations, err = get("dilations", 1, k); err != nil {
		return nil, err
	}
	if w.pads, err = get("pads", 0, 2*k); err != nil {
		return nil, err
	}
	if w.autoPad, err = n.String("auto_pad", "NOTSET"); err != nil {
		return nil, err
	}
	ceil, err := n.Int("ceil_mode", 0)
	if err != nil {
		return nil, err
	}
	w.ceil = ceil != 0
	for i := 0; i < k; i++ {
		if w.strides[i] <= 0 || w.dilations[i] <= 0 || w.kernel[i] <= 0 {
			return nil, c.errf("kernel %v, strides %v, dilations %v", w.kernel, w.strides, w.dilations)
		}
		if w.pads[i] < 0 || w.pads[i+k] < 0 {
			return nil, c.errf("negative pads %v", w.pads)
		}
	}
	switch w.autoPad {
	case "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID":
	default:
		return nil, c.errf("auto_pad %q", w.autoPad)
	}
	return w, nil
}

// outDim is a conv or pool output size for input size d along axis i.
func (c *inferCtx) outDim(w *windowAttrs, i, d int) (int, error) {
	if d < 0 {
		return -1, nil
	}
	k := len(w.kernel)
	eff, ok := mulDim(w.kernel[i]-1, w.dilations[i])
	if !ok {
		return 0, c.errf("kernel overflows")
	}
	eff++
	s := w.strides[i]
	in := int64(d)
	switch w.autoPad {
	case "SAME_UPPER", "SAME_LOWER":
		q := in / s // rounded up, without overflowing in+s-1
		if in%s != 0 {
			q++
		}
		return int(q), nil
	case "VALID":
		if in < eff {
			return 0, c.errf("input size %d smaller than kernel extent %d", in, eff)
		}
		return int((in-eff)/s + 1), nil
	}
	padded, ok1 := addDim(in, w.pads[i])
	padded, ok2 := addDim(padded, w.pads[i+k])
	if !ok1 || !ok2 {
		return 0, c.errf("pads overflow")
	}
	if padded < eff {
		return 0, c.errf("padded input size %d smaller than kernel extent %d", padded, eff)
	}
	span := padded - eff
	out := span/s + 1
	if w.ceil && span%s != 0 {
		out++
		// The last window must start inside the input or left padding.
		if p, ok := mulDim(out-1, s); !ok || p >= in+w.pads[i] {
			out--
		}
	}
	return int(out), nil
}

func (c *inferCtx) conv(transpose bool) (ValueInfo, error) {
	n := c.n
	dt := c.dt(0)
	x, xok := c.shape(0)
	wt, wok := c.shape(1)
	r := -1
	switch {
	case xok:
		r = len(x)
	case wok:
		r = len(wt)
	}
	if r < 0 {
		return unranked(dt), nil
	}
	if r < 3 || (wok && len(wt) != r) {
		return ValueInfo{}, c.errf("input rank %d, weight rank %d", r, len(wt))
	}
	if !xok {
		x = unknownDims(r)
	}
	if !wok {
		wt = unknownDims(r)
	}
	k := r - 2
	group, err := n.Int("group", 1)
	if err != nil {
		return ValueInfo{}, err
	}
	if group <= 0 || group > 1<<31 {
		return ValueInfo{}, c.errf("group %d", group)
	}
	kernel, err := n.Ints("kernel_shape", nil)
	if err != nil {
		return ValueInfo{}, err
	}
	if kernel == nil {
		kernel = make([]int64, k)
		for i := range kernel {
			kernel[i] = int64(wt[2+i])
		}
	}
	if len(kernel) != k {
		return ValueInfo{}, c.errf("kernel_shape %v for %d spatial dims", kernel, k)
	}
	out := make([]int, r)
	out[0] = x[0]
	for i, kd := range kernel {
		if kd < 0 {
			// The weight's dim is unknown: so are the output's.
			for j := 2; j < r; j++ {
				out[j] = -1
			}
			kernel = nil
			break
		}
		if wt[2+i] >= 0 && int64(wt[2+i]) != kd {
			return ValueInfo{}, c.errf("kernel_shape %v and weight shape %v differ", kernel, wt)
		}
	}
	if !transpose {
		out[1] = wt[0]
		if x[1] >= 0 && wt[1] >= 0 {
			if p, ok := mulDim(int64(wt[1]), group); !ok || p != int64(x[1]) {
				return ValueInfo{}, c.errf("input channels %d, weight %v with group %d", x[1], wt, group)
			}
		}
		if kernel == nil {
			return ranked(dt, out), nil
		}
		w, err := c.window(k, kernel)
		if err != nil {
			return ValueInfo{}, err
		}
		w.ceil = false
		for i := 0; i < k; i++ {
			if out[2+i], err = c.outDim(w, i, x[2+i]); err != nil {
				return ValueInfo{}, err
			}
		}
		return ranked(dt, out), nil
	}
	out[1] = -1
	if wt[1] >= 0 {
		p, ok := mulDim(int64(wt[1]), group)
		if !ok {
			return ValueInfo{}, c.errf("output channels overflow")
		}
		out[1] = int(p)
	}
	if x[1] >= 0 && wt[0] >= 0 && x[1] != wt[0] {
		return ValueInfo{}, c.errf("input channels %d, weight %v", x[1], wt)
	}
	if kernel == nil {
		return ranked(dt, out), nil
	}
	os, err := n.Ints("output_shape", nil)
	if err != nil {
		return ValueInfo{}, err
	}
	if os != nil {
		if len(os) == r {
			os = os[2:]
		}
		if len(os) != k {
			return ValueInfo{}, c.errf("output_shape %v for %d spatial dims", os, k)
		}
		for i, d := range os {
			if out[2+i], err = c.dim(d, "output_shape"); err != nil {
				return ValueInfo{}, err
			}
		}
		return ranked(dt, out), nil
	}
	w, err := c.window(k, kernel)
	if err != nil {
		return ValueInfo{}, err
	}
	op, err := n.Ints("output_padding", nil)
	if err != nil {
		return ValueInfo{}, err
	}
	if op != nil && len(op) != k {
		return ValueInfo{}, c.errf("output_padding %v for %d spatial dims", op, k)
	}
	for i := 0; i < k; i++ {
		d := x[2+i]
		if d < 0 {
			out[2+i] = -1
			continue
		}
		if w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER" {
			v, ok := mulDim(int64(d), w.strides[i])
			if !ok {
				return ValueInfo{}, c.errf("output dim overflows")
			}
			out[2+i] = int(v)
			continue
		}
		var pb, pe, opad int64
		if w.autoPad != "VALID" {
			pb, pe = w.pads[i], w.pads[i+k]
		}
		if op != nil {
			opad = op[i]
		}
		v, ok1 := mulDim(int64(max(d-1, 0)), w.strides[i])
		e, ok2 := mulDim(kernel[i]-1, w.dilations[i])
		v, ok3 := addDim(v, e+1)
		v, ok4 := addDim(v, opad)
		v, ok5 := addDim(v, -pb)
		v, ok6 := addDim(v, -pe)
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || v < 0 {
			return ValueInfo{}, c.errf("output dim out of range")
		}
		out[2+i] = int(v)
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) pool() (ValueInfo, error) {
	dt := c.dt(0)
	kernel, err := c.n.Ints("kernel_shape", nil)
	if err != nil {
		return ValueInfo{}, err
	}
	if kernel == nil {
		return ValueInfo{}, c.errf("attribute \"kernel_shape\" missing")
	}
	x, ok := c.shape(0)
	if !ok {
		if err := c.checkRank(int64(len(kernel) + 2)); err != nil {
			return ValueInfo{}, err
		}
		return ranked(dt, unknownDims(len(kernel)+2)), nil
	}
	k := len(x) - 2
	if k < 1 || len(kernel) != k {
		return ValueInfo{}, c.errf("kernel_shape %v for input rank %d", kernel, len(x))
	}
	w, err := c.window(k, kernel)
	if err != nil {
		return ValueInfo{}, err
	}
	for i := 0; i < k; i++ {
		if x[2+i], err = c.outDim(w, i, x[2+i]); err != nil {
			return ValueInfo{}, err
		}
	}
	return ranked(dt, x), nil
}
