package model

import "math"

func init() {
	RegisterOp(&Op{
		Type: "Clip",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 11, MinIn: 1, MaxIn: 3, MaxOut: 1},
		},
		InputNames: []string{"input", "min", "max"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ClipAttrs{Min: -math.MaxFloat32, Max: math.MaxFloat32}
			if opset >= 11 {
				return a, nil
			}
			a.FromAttrs = true
			var err error
			if a.Min, err = n.Float("min", -math.MaxFloat32); err != nil {
				return nil, err
			}
			if a.Max, err = n.Float("max", math.MaxFloat32); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "PRelu",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"X", "slope"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			return &PReluAttrs{PerChannel: opset < 7}, nil
		},
	})
}

// ClipAttrs are a Clip node's attributes. The output has the input's
// shape and type; its elements are bounded by min and max: attributes
// before opset 11, optional scalar inputs 1 and 2 after.
type ClipAttrs struct {
	// FromAttrs is set before opset 11, where Min and Max hold the
	// bounds.
	FromAttrs bool
	// Min and Max are the min and max attributes (before opset 11), with
	// their defaults, the float32 range.
	Min, Max float32
}

// Infer implements Rule. The bounds are to be scalars; a backend refuses
// others when it runs the node.
func (a *ClipAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	return nil
}

// PReluAttrs are a PRelu node's attributes. The output has X's shape and
// type. From opset 7 the slope broadcasts to X unidirectionally; before,
// it has one element, or one per channel (dim 1 of X).
type PReluAttrs struct {
	// PerChannel is set before opset 7: a slope that has more than one
	// element is 1-D and applies along X's dim 1.
	PerChannel bool
}

// Infer implements Rule.
func (a *PReluAttrs) Infer(c *InferCtx) error {
	x, ok := c.Dims(0)
	c.SetType(0, c.DType(0))
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	out := c.OutDims(0, len(x))
	copy(out, x)
	s, ok := c.Dims(1)
	if !ok {
		return nil
	}
	if a.PerChannel {
		n, known, err := c.Numel(s)
		switch {
		case err != nil:
			return err
		case known && n == 1:
		case len(s) == 1 && len(x) >= 2:
			if !narrowDim(&out[1], s[0]) {
				return c.Errorf("slope shape %v: want one element or one per channel of X %v", s, x)
			}
		case !known:
			// It may yet have one element.
		default:
			return c.Errorf("slope shape %v: want one element or one per channel of X %v", s, x)
		}
		return nil
	}
	off := len(x) - len(s)
	if off < 0 {
		return c.Errorf("slope shape %v does not broadcast to input shape %v", s, x)
	}
	for i, d := range s {
		if d != 1 && !narrowDim(&out[off+i], d) {
			return c.Errorf("slope shape %v does not broadcast to input shape %v", s, x)
		}
	}
	return nil
}
