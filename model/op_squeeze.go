package model

func init() {
	RegisterOp(&Op{
		Type: "Squeeze",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 13, MinIn: 1, MaxIn: 2, MaxOut: 1, Values: []int{1}},
		},
		InputNames: []string{"data", "axes"},
		Bind:       bindSqueeze(false),
	})
	RegisterOp(&Op{
		Type: "Unsqueeze",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 13, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}},
		},
		InputNames: []string{"data", "axes"},
		Bind:       bindSqueeze(true),
	})
}

func bindSqueeze(unsq bool) func(n *Node, opset int64) (Rule, error) {
	return func(n *Node, opset int64) (Rule, error) {
		a := &SqueezeAttrs{Unsqueeze: unsq}
		if opset >= 13 {
			return a, nil
		}
		axes, err := n.Ints("axes", nil)
		if err != nil {
			return nil, err
		}
		if unsq && !n.Has("axes") {
			return nil, attrMissing(n, "axes")
		}
		a.Axes, a.AxesAttr = axes, true
		return a, nil
	}
}

// SqueezeAttrs are a Squeeze or Unsqueeze node's attributes. Squeeze
// drops the unit dims listed in its axes (every unit dim when there are
// none); Unsqueeze inserts unit dims at its axes, which index the
// output.
type SqueezeAttrs struct {
	// Unsqueeze selects Unsqueeze.
	Unsqueeze bool
	// AxesAttr says the axes come from the axes attribute (opsets before
	// 13), not from input 1.
	AxesAttr bool
	// Axes is the axes attribute; nil when absent or read from input 1.
	Axes []int64
}

// axes returns the node's axes, whether they are given and whether their
// values are known.
func (a *SqueezeAttrs) axes(c *InferCtx) (axes []int64, given, known bool) {
	if a.AxesAttr {
		return a.Axes, len(a.Axes) > 0 || a.Unsqueeze, true
	}
	if !c.Has(1) {
		return nil, false, true
	}
	v, ok := c.Ints(1)
	if !ok {
		return nil, true, false
	}
	return v, len(v) > 0 || a.Unsqueeze, true
}

// Infer implements Rule.
func (a *SqueezeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if !a.AxesAttr && c.Has(1) {
		if r := c.Rank(1); r > 1 {
			return c.Errorf("the axes input has rank %d, want 1", r)
		}
	}
	if a.Unsqueeze {
		return a.unsqueeze(c)
	}
	axes, given, known := a.axes(c)
	s, ok := c.Dims(0)
	if !ok || !known {
		if l := c.VecLen(1); ok && !known && l > 0 && l <= len(s) {
			c.SetUnknownDims(0, len(s)-l)
			return nil
		}
		c.SetUnranked(0)
		return nil
	}
	mark := c.Scratch(len(s))
	n := 0
	if !given {
		for i, d := range s {
			if d < 0 {
				c.SetUnranked(0)
				return nil
			}
			if d == 1 {
				mark[i] = 1
				n++
			}
		}
	} else {
		if err := c.MarkAxes(axes, len(s), mark); err != nil {
			return err
		}
		for i, d := range s {
			if mark[i] == 0 {
				continue
			}
			if d > 1 || d == 0 {
				return c.Errorf("cannot squeeze axis %d of shape %v", i, s)
			}
			n++
		}
	}
	out := c.OutDims(0, len(s)-n)
	j := 0
	for i, d := range s {
		if mark[i] == 0 {
			out[j] = d
			j++
		}
	}
	return nil
}

func (a *SqueezeAttrs) unsqueeze(c *InferCtx) error {
	axes, _, known := a.axes(c)
	s, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	if !known {
		if l := c.VecLen(1); l >= 0 {
			if err := c.RankOK(len(s) + l); err != nil {
				return err
			}
			c.SetUnknownDims(0, len(s)+l)
			return nil
		}
		c.SetUnranked(0)
		return nil
	}
	r := len(s) + len(axes)
	if err := c.RankOK(r); err != nil {
		return err
	}
	mark := c.Scratch(r)
	if err := c.MarkAxes(axes, r, mark); err != nil {
		return err
	}
	out := c.OutDims(0, r)
	j := 0
	for i := range out {
		if mark[i] != 0 {
			out[i] = 1
			continue
		}
		out[i] = s[j]
		j++
	}
	return nil
}
