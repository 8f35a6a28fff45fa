package model

func init() {
	RegisterOp(&Op{
		Type: "Slice",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 10, MinIn: 3, MaxIn: 5, MaxOut: 1, Values: []int{1, 2, 3, 4}},
		},
		InputNames: []string{"data", "starts", "ends", "axes", "steps"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &SliceAttrs{}
			if opset >= 10 {
				return a, nil
			}
			a.Attrs = true
			var err error
			if a.Starts, err = n.Ints("starts", nil); err != nil {
				return nil, err
			}
			if a.Ends, err = n.Ints("ends", nil); err != nil {
				return nil, err
			}
			if a.Axes, err = n.Ints("axes", nil); err != nil {
				return nil, err
			}
			if !n.Has("starts") {
				return nil, attrMissing(n, "starts")
			}
			if !n.Has("ends") {
				return nil, attrMissing(n, "ends")
			}
			return a, nil
		},
	})
}

// SliceAttrs are a Slice node's attributes. Along each listed axis
// (every leading one by default) the output takes the input's elements
// from start towards end (excluded) by step (1 by default); negative
// starts and ends count from the end, and both are clamped to the dim.
// From opset 10 starts, ends, axes and steps are inputs 1 to 4.
type SliceAttrs struct {
	// Attrs says the starts, ends and axes are attributes (opsets
	// before 10).
	Attrs bool
	// Starts, Ends and Axes are the attributes of opsets before 10; Axes
	// is nil when absent.
	Starts, Ends, Axes []int64
}

// Params returns the node's starts, ends, axes and steps (axes and steps
// nil when not given) and whether all of them are known.
func (a *SliceAttrs) Params(c *InferCtx) (starts, ends, axes, steps []int64, known bool) {
	if a.Attrs {
		return a.Starts, a.Ends, a.Axes, nil, true
	}
	known = true
	var ok bool
	starts, ok = c.Ints(1)
	known = known && ok
	ends, ok = c.Ints(2)
	known = known && ok
	if c.Has(3) {
		axes, ok = c.Ints(3)
		known = known && ok
	}
	if c.Has(4) {
		steps, ok = c.Ints(4)
		known = known && ok
	}
	return starts, ends, axes, steps, known
}

// Infer implements Rule.
func (a *SliceAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if !a.Attrs {
		for i := 1; i <= 4; i++ {
			if r := c.Rank(i); r > 1 {
				return c.Errorf("input %d has rank %d, want 1", i, r)
			}
		}
	}
	s, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	r := len(s)
	starts, ends, axes, steps, known := a.Params(c)
	out := c.OutDims(0, r)
	copy(out, s)
	if !known {
		// Only the sliced axes change, if they are known.
		_, axesKnown := c.Ints(3)
		if c.Has(3) && !axesKnown {
			for i := range out {
				out[i] = -1
			}
			return nil
		}
		if c.Has(3) {
			mark := c.Scratch(r)
			if err := c.MarkAxes(axes, r, mark); err != nil {
				return err
			}
			for i := range out {
				if mark[i] != 0 {
					out[i] = -1
				}
			}
			return nil
		}
		n := r
		if l := c.VecLen(1); l >= 0 && l <= r {
			n = l
		}
		for i := range n {
			out[i] = -1
		}
		return nil
	}
	m := len(starts)
	if len(ends) != m {
		return c.Errorf("%d starts and %d ends", m, len(ends))
	}
	if axes == nil && m > r {
		return c.Errorf("%d starts for rank %d", m, r)
	}
	if (axes != nil && len(axes) != m) || (steps != nil && len(steps) != m) {
		return c.Errorf("%d starts, %d axes, %d steps", m, len(axes), len(steps))
	}
	mark := c.Scratch(r)
	for i := range m {
		ax := i
		if axes != nil {
			var err error
			if ax, err = c.Axis(axes[i], r); err != nil {
				return err
			}
		}
		if mark[ax] != 0 {
			return c.Errorf("axis %d repeated", ax)
		}
		mark[ax] = 1
		step := int64(1)
		if steps != nil {
			step = steps[i]
		}
		if step == 0 {
			return c.Errorf("step 0 on axis %d", ax)
		}
		if s[ax] < 0 {
			continue
		}
		out[ax] = int(sliceCount(int64(s[ax]), starts[i], ends[i], step))
	}
	return nil
}
