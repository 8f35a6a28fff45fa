package model

func init() {
	bind := func(elements bool) func(n *Node, opset int64) (Rule, error) {
		return func(n *Node, opset int64) (Rule, error) {
			a, err := n.Int("axis", 0)
			if err != nil {
				return nil, err
			}
			return &GatherAttrs{Elements: elements, Axis: a}, nil
		}
	}
	RegisterOp(&Op{
		Type:       "Gather",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"data", "indices"},
		Bind:       bind(false),
	})
	RegisterOp(&Op{
		Type:       "GatherElements",
		Versions:   []Version{{Since: 11, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"data", "indices"},
		Bind:       bind(true),
	})
}

// GatherAttrs are a Gather or GatherElements node's attributes. Gather
// replaces dim Axis of the data with the indices' dims; GatherElements
// picks one element per index, and its output has the indices' shape.
type GatherAttrs struct {
	// Elements selects GatherElements.
	Elements bool
	// Axis is the data axis the indices index; negatives count from the
	// end.
	Axis int64
}

// Infer implements Rule.
func (a *GatherAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	s, ok1 := c.Dims(0)
	idx, ok2 := c.Dims(1)
	if a.Elements {
		return a.elements(c, s, ok1, idx, ok2)
	}
	if !ok1 || !ok2 {
		c.SetUnranked(0)
		return nil
	}
	ax, err := c.Axis(a.Axis, len(s))
	if err != nil {
		return err
	}
	if err := c.RankOK(len(s) - 1 + len(idx)); err != nil {
		return err
	}
	out := c.OutDims(0, len(s)-1+len(idx))
	copy(out, s[:ax])
	copy(out[ax:], idx)
	copy(out[ax+len(idx):], s[ax+1:])
	return nil
}

func (a *GatherAttrs) elements(c *InferCtx, s []int, ok1 bool, idx []int, ok2 bool) error {
	if ok1 {
		ax, err := c.Axis(a.Axis, len(s))
		if err != nil {
			return err
		}
		if ok2 {
			if len(idx) != len(s) {
				return c.Errorf("indices shape %v and data shape %v differ in rank", idx, s)
			}
			for d := range idx {
				if d != ax && idx[d] >= 0 && s[d] >= 0 && idx[d] > s[d] {
					return c.Errorf("indices shape %v exceeds data shape %v", idx, s)
				}
			}
		}
	}
	if !ok2 {
		c.SetUnranked(0)
		return nil
	}
	c.SetDims(0, idx)
	return nil
}
