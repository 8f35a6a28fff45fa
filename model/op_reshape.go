package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "Reshape",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 5, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}},
		},
		InputNames: []string{"data", "shape"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ReshapeAttrs{}
			if opset >= 14 {
				az, err := n.Int("allowzero", 0)
				if err != nil {
					return nil, err
				}
				a.AllowZero = az != 0
			}
			if opset < 5 {
				s, err := n.Ints("shape", nil)
				if err != nil {
					return nil, err
				}
				if s == nil {
					return nil, attrMissing(n, "shape")
				}
				a.Shape = s
			}
			return a, nil
		},
	})
}

// ReshapeAttrs are a Reshape node's attributes. The output views the
// input's elements with the shape input's dims (before opset 5, the
// shape attribute's): a 0 copies the input's dim unless AllowZero, and
// one -1 takes what is left.
type ReshapeAttrs struct {
	AllowZero bool
	// Shape is the shape attribute of opsets before 5, nil after.
	Shape []int64
}

// Infer implements Rule.
func (a *ReshapeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	spec := a.Shape
	if spec == nil {
		if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
			return c.Errorf("the shape input has element type %s: it must hold integers (int64)", dt)
		}
		v, ok := c.Ints(1)
		if !ok {
			if l := c.VecLen(1); l >= 0 {
				if err := c.RankOK(l); err != nil {
					return err
				}
				c.SetUnknownDims(0, l)
				return nil
			}
			if r := c.Rank(1); r >= 0 && r != 1 {
				return c.Errorf("the shape input has rank %d, want 1", r)
			}
			c.SetUnranked(0)
			return nil
		}
		if c.Rank(1) != 1 {
			return c.Errorf("the shape input has rank %d, want 1", c.Rank(1))
		}
		spec = v
	}
	if err := c.RankOK(len(spec)); err != nil {
		return err
	}
	in, inKnown := c.Dims(0)
	out := c.OutDims(0, len(spec))
	infer := -1
	hasZero := false
	for i, x := range spec {
		switch {
		case x == -1:
			if infer >= 0 {
				return c.Errorf("shape %v has more than one -1", spec)
			}
			infer = i
			out[i] = -1
		case x == 0 && !a.AllowZero:
			switch {
			case !inKnown:
				out[i] = -1
			case i >= len(in):
				return c.Errorf("shape %v copies dim %d of a rank-%d input", spec, i, len(in))
			default:
				out[i] = in[i]
			}
		case x < 0:
			return c.Errorf("shape %v has a negative dim", spec)
		default:
			d, err := c.Dim(x, "shape")
			if err != nil {
				return err
			}
			out[i] = d
			hasZero = hasZero || d == 0
		}
	}
	if a.AllowZero && infer >= 0 && hasZero {
		return c.Errorf("shape %v has both 0 and -1 with allowzero", spec)
	}
	total, totalKnown := -1, false
	if inKnown {
		var err error
		if total, totalKnown, err = c.Numel(in); err != nil {
			return err
		}
	}
	// The product of the output's dims other than the one to infer.
	p, pKnown := 1, true
	for i, d := range out {
		switch {
		case i == infer:
		case d == 0:
			p, pKnown = 0, true
		case d < 0:
			if p != 0 {
				pKnown = false
			}
		case p != 0:
			if p > maxDimValue/d {
				return c.Errorf("shape %v overflows", spec)
			}
			p *= d
		}
		if p == 0 {
			pKnown = true
		}
	}
	switch {
	case infer >= 0 && totalKnown && pKnown:
		if p == 0 || total%p != 0 {
			return c.Errorf("cannot reshape %v to %v: no value for its -1", in, spec)
		}
		out[infer] = total / p
	case infer < 0 && totalKnown && pKnown && total != p:
		return c.Errorf("cannot reshape %v (%d elements) to %v", in, total, spec)
	}
	return nil
}
