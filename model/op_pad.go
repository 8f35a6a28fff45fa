package model

import "github.com/lintel-ml/lintel/internal/errs"

func init() {
	RegisterOp(&Op{
		Type: "Pad",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 11, MinIn: 2, MaxIn: 3, MaxOut: 1, Values: []int{1}},
			{Since: 18, MinIn: 2, MaxIn: 4, MaxOut: 1, Values: []int{1, 3}},
		},
		InputNames: []string{"data", "pads", "constant_value", "axes"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			mode, err := n.String("mode", "constant")
			if err != nil {
				return nil, err
			}
			switch mode {
			case "constant", "reflect", "edge":
			case "wrap":
				if opset < 19 {
					return nil, attrInvalid(n, "mode %q before opset 19", mode)
				}
			default:
				return nil, errs.New(errs.Unsupported, "node %q (%s): mode %q", n.Label(), n.OpType, mode)
			}
			a := &PadAttrs{Mode: mode}
			if opset >= 11 {
				return a, nil
			}
			a.Attrs = true
			name := "pads"
			if opset < 2 {
				name = "paddings"
			}
			if a.Pads, err = n.Ints(name, nil); err != nil {
				return nil, err
			}
			if !n.Has(name) {
				return nil, attrMissing(n, name)
			}
			if a.Value, err = n.Float("value", 0); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// PadAttrs are a Pad node's attributes. Each padded axis (every axis, or
// those of the axes input from opset 18) grows by its leading and
// trailing pads, pads[i] and pads[i+len(axes)]; negative pads crop. From
// opset 11 the pads and the constant are inputs 1 and 2.
type PadAttrs struct {
	// Mode is "constant", "reflect", "edge" or "wrap" (opset 19).
	Mode string
	// Attrs says the pads and the constant are attributes (opsets before
	// 11).
	Attrs bool
	// Pads is the pads attribute (paddings at opset 1) of opsets before
	// 11.
	Pads []int64
	// Value is the value attribute of opsets before 11: the constant of
	// mode "constant".
	Value float32
}

// Infer implements Rule.
func (a *PadAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if !a.Attrs {
		for _, i := range [2]int{1, 3} {
			if r := c.Rank(i); r > 1 {
				return c.Errorf("input %d has rank %d, want 1", i, r)
			}
		}
	}
	s, known := c.Dims(0)
	if !known {
		c.SetUnranked(0)
		return nil
	}
	r := len(s)
	out := c.OutDims(0, r)
	copy(out, s)
	pads, ok := a.Pads, true
	var axes []int64
	if !a.Attrs {
		pads, ok = c.Ints(1)
		if ok && c.Has(3) {
			axes, ok = c.Ints(3)
		}
	}
	if !ok {
		for i := range out {
			out[i] = -1
		}
		return nil
	}
	m := r
	if axes != nil {
		m = len(axes)
	}
	if len(pads) != 2*m {
		return c.Errorf("%d pads for %d axes", len(pads), m)
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
		if s[ax] < 0 {
			continue
		}
		b, e := pads[i], pads[i+m]
		x, ok1 := addDim(int64(s[ax]), b)
		y, ok2 := addDim(x, e)
		lim := int64(maxDimValue)
		if !ok1 || !ok2 || y < 0 || y > lim || b < -lim || b > lim || e < -lim || e > lim {
			return c.Errorf("padding dim %d of %v by %d, %d", ax, s, b, e)
		}
		if a.Mode != "constant" && s[ax] == 0 && y > 0 {
			return c.Errorf("cannot pad the empty dim %d of %v in mode %s", ax, s, a.Mode)
		}
		out[ax] = int(y)
	}
	return nil
}
