package model

func init() {
	RegisterOp(&Op{
		Type:       "Concat",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: Many, MaxOut: 1}},
		InputNames: []string{"inputs"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			if opset >= 4 && !n.Has("axis") {
				return nil, attrMissing(n, "axis")
			}
			a, err := n.Int("axis", 1)
			if err != nil {
				return nil, err
			}
			return &ConcatAttrs{Axis: a}, nil
		},
	})
}

// ConcatAttrs are a Concat node's attributes. The inputs, of one rank
// and equal dims off Axis, are joined along Axis.
type ConcatAttrs struct {
	// Axis is the axis to join along; negatives count from the end. It
	// is required from opset 4 and defaults to 1 before.
	Axis int64
}

// Infer implements Rule.
func (a *ConcatAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	return concatDims(c, a.Axis, 0, 1)
}

// concatDims is Concat's shape rule over the inputs first, first+step...:
// QLinearConcat's tensors are every third input from the third.
func concatDims(c *InferCtx, axisAttr int64, first, step int) error {
	var out []int
	axis, sum := -1, 0
	for i := first; i < c.NumIn(); i += step {
		if !c.Has(i) {
			continue
		}
		s, known := c.Dims(i)
		if !known {
			sum = -1
			continue
		}
		if out == nil {
			ax, err := c.Axis(axisAttr, len(s))
			if err != nil {
				return err
			}
			axis = ax
			out = c.OutDims(0, len(s))
			copy(out, s)
			out[axis] = -1
		} else if len(s) != len(out) {
			return c.Errorf("inputs of ranks %d and %d", len(out), len(s))
		}
		for j, d := range s {
			if j == axis {
				continue
			}
			switch {
			case out[j] < 0:
				out[j] = d
			case d >= 0 && d != out[j]:
				return c.Errorf("input %d has shape %v, others dim %d = %d", i, s, j, out[j])
			}
		}
		if sum >= 0 {
			switch d := s[axis]; {
			case d < 0:
				sum = -1
			case d > maxDimValue-sum:
				return c.Errorf("concatenated dim overflows")
			default:
				sum += d
			}
		}
	}
	if out == nil {
		c.SetUnranked(0)
		return nil
	}
	out[axis] = sum
	return nil
}
