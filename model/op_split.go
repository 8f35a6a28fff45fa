package model

import "math"

// manyOut bounds the outputs of an op with variadic outputs.
const manyOut = math.MaxInt32

func init() {
	RegisterOp(&Op{
		Type: "Split",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 2, MaxOut: manyOut, Values: []int{1}},
			{Since: 2, MinIn: 1, MaxIn: 1, MaxOut: manyOut},
			{Since: 13, MinIn: 1, MaxIn: 2, MaxOut: manyOut, Values: []int{1}},
		},
		InputNames: []string{"input", "split"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			ax, err := n.Int("axis", 0)
			if err != nil {
				return nil, err
			}
			a := &SplitAttrs{Axis: ax}
			if opset < 13 {
				if a.Split, err = n.Ints("split", nil); err != nil {
					return nil, err
				}
			}
			if opset >= 18 && n.Has("num_outputs") {
				if a.NumOutputs, err = n.Int("num_outputs", 0); err != nil {
					return nil, err
				}
				if a.NumOutputs < 1 {
					return nil, attrInvalid(n, "num_outputs %d", a.NumOutputs)
				}
				if n.Input(1) != "" {
					return nil, attrInvalid(n, "both num_outputs and the split input are given")
				}
			}
			return a, nil
		},
	})
}

// SplitAttrs are a Split node's attributes. The input is cut along Axis
// into the outputs: by the sizes of the split attribute (opsets before
// 13) or input, else into equal parts, the last one smaller when
// NumOutputs is given (opset 18).
type SplitAttrs struct {
	// Axis is the axis to cut; negatives count from the end.
	Axis int64
	// Split is the split attribute of opsets before 13, nil when absent.
	Split []int64
	// NumOutputs is the num_outputs attribute of opset 18, 0 when absent.
	NumOutputs int64
}

// Infer implements Rule.
func (a *SplitAttrs) Infer(c *InferCtx) error {
	k := c.NumOut()
	if k == 0 {
		return c.Errorf("no outputs to split into")
	}
	dt := c.DType(0)
	for j := range k {
		c.SetType(j, dt)
	}
	s, ok := c.Dims(0)
	if !ok {
		for j := range k {
			c.SetUnranked(j)
		}
		return nil
	}
	ax, err := c.Axis(a.Axis, len(s))
	if err != nil {
		return err
	}
	split, known := a.Split, true
	if split == nil && c.Has(1) {
		if r := c.Rank(1); r > 1 {
			return c.Errorf("the split input has rank %d, want 1", r)
		}
		split, known = c.Ints(1)
	}
	d := s[ax]
	chunk := -1
	switch {
	case !known:
	case split != nil:
		if len(split) != k {
			return c.Errorf("split %v for %d outputs", split, k)
		}
		total := 0
		for _, x := range split {
			v, err := c.Dim(x, "split")
			if err != nil {
				return err
			}
			if v > maxDimValue-total {
				return c.Errorf("split %v overflows", split)
			}
			total += v
		}
		if d >= 0 && total != d {
			return c.Errorf("split %v of dim %d", split, d)
		}
	case a.NumOutputs > 0:
		if a.NumOutputs != int64(k) {
			return c.Errorf("num_outputs %d with %d outputs", a.NumOutputs, k)
		}
		if d >= 0 {
			chunk = (d + k - 1) / k
			if k > 1 && chunk*(k-1) > d {
				return c.Errorf("dim %d cannot be split into %d outputs", d, k)
			}
		}
	case d >= 0:
		if d%k != 0 {
			return c.Errorf("dim %d does not split evenly into %d outputs", d, k)
		}
		chunk = d / k
	}
	left := d
	for j := range k {
		o := c.OutDims(j, len(s))
		copy(o, s)
		switch {
		case !known:
			o[ax] = -1
		case split != nil:
			o[ax] = int(split[j])
		case chunk < 0:
			o[ax] = -1
		default:
			o[ax] = min(chunk, left)
			left -= o[ax]
		}
	}
	return nil
}
