package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	// The opset at which each op's axes move from an attribute to input 1.
	for _, o := range []struct {
		op    string
		input int64
	}{
		{"ReduceSum", 13},
		{"ReduceMean", 18}, {"ReduceMax", 18}, {"ReduceMin", 18}, {"ReduceProd", 18},
		{"ReduceL1", 18}, {"ReduceL2", 18}, {"ReduceSumSquare", 18},
		{"ReduceLogSum", 18}, {"ReduceLogSumExp", 18},
	} {
		RegisterOp(&Op{
			Type: o.op,
			Versions: []Version{
				{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
				{Since: o.input, MinIn: 1, MaxIn: 2, MaxOut: 1, Values: []int{1}},
			},
			InputNames: []string{"data", "axes"},
			Bind: func(n *Node, opset int64) (Rule, error) {
				return bindReduce(n, opset >= o.input)
			},
		})
	}
}

func bindReduce(n *Node, axesInput bool) (Rule, error) {
	a := &ReduceAttrs{AxesInput: axesInput}
	var err error
	if a.KeepDims, err = flagAttr(n, "keepdims", true); err != nil {
		return nil, err
	}
	if axesInput {
		if a.NoopWithEmptyAxes, err = flagAttr(n, "noop_with_empty_axes", false); err != nil {
			return nil, err
		}
		return a, nil
	}
	if a.Axes, err = n.Ints("axes", nil); err != nil {
		return nil, err
	}
	return a, nil
}

// ReduceAttrs are the attributes of a Reduce* node (ReduceSum,
// ReduceMean, ReduceMax...). The reduced axes come from the axes
// attribute before opset 13 for ReduceSum and 18 for the others, and from
// the optional int64 input 1 from then on. No axes means every axis,
// unless NoopWithEmptyAxes: then the output is the input.
type ReduceAttrs struct {
	// Axes is the axes attribute of the opsets before the input; nil
	// when absent or when the axes are an input.
	Axes []int64
	// AxesInput is set from the opset at which the axes are input 1.
	AxesInput bool
	// KeepDims keeps each reduced axis with size 1.
	KeepDims bool
	// NoopWithEmptyAxes makes empty axes a copy, not a full reduction
	// (with the axes input only).
	NoopWithEmptyAxes bool
}

// Infer implements Rule.
func (a *ReduceAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	axes, known := a.Axes, true
	if a.AxesInput && c.Has(1) {
		if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
			return c.Errorf("the axes input has element type %s, want int64", dt)
		}
		if r := c.Rank(1); r > 1 {
			return c.Errorf("the axes input has rank %d, want 1", r)
		}
		axes, known = c.Ints(1)
	}
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	if !known {
		if a.KeepDims {
			c.SetUnknownDims(0, len(x))
		} else {
			c.SetUnranked(0)
		}
		return nil
	}
	if len(axes) == 0 && a.NoopWithEmptyAxes {
		c.SetDims(0, x)
		return nil
	}
	marks := c.Scratch(len(x))
	if len(axes) == 0 {
		for i := range marks {
			marks[i] = 1
		}
	} else if err := c.MarkAxes(axes, len(x), marks); err != nil {
		return err
	}
	r := len(x)
	if !a.KeepDims {
		for _, m := range marks {
			r -= m
		}
	}
	out := c.OutDims(0, r)
	j := 0
	for i, d := range x {
		switch {
		case marks[i] == 0:
			out[j] = d
		case a.KeepDims:
			out[j] = 1
		default:
			continue
		}
		j++
	}
	return nil
}
