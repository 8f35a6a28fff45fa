package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "TensorScatter",
		Versions:   []Version{{Since: 24, MinIn: 2, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"past_cache", "update", "write_indices"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &TensorScatterAttrs{}
			var err error
			if a.Axis, err = n.Int("axis", -2); err != nil {
				return nil, err
			}
			m, err := n.String("mode", "linear")
			if err != nil {
				return nil, err
			}
			switch m {
			case "linear":
			case "circular":
				a.Circular = true
			default:
				return nil, invalidAttr(n, "unknown mode %q", m)
			}
			return a, nil
		},
	})
}

// TensorScatterAttrs are a TensorScatter node's attributes. The output
// is the cache (input 0) with the update (input 1) written along Axis:
// for batch item b, update position s goes to cache position
// write_indices[b]+s (input 2, zeros when absent), modulo the cache's
// length along Axis in circular mode. The update's shape is the cache's
// but for a length along Axis no larger than the cache's.
type TensorScatterAttrs struct {
	// Axis is the sequence axis; negatives count from the end. It may not
	// be the batch axis 0.
	Axis int64
	// Circular wraps writes around the end of the axis (mode "circular");
	// in linear mode they must fit.
	Circular bool
}

// Infer implements Rule.
func (a *TensorScatterAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	if dt := c.DType(1); dt != c.DType(0) && dt != 0 && c.DType(0) != 0 {
		return c.Errorf("the update has element type %s, the cache %s", dt, c.DType(0))
	}
	if dt := c.DType(2); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("write_indices have element type %s, want int64", dt)
	}
	x, ok := c.Dims(0)
	if !ok {
		return nil
	}
	ax, err := c.Axis(a.Axis, len(x))
	if err != nil {
		return err
	}
	if ax == 0 {
		return c.Errorf("axis %d is the batch axis", a.Axis)
	}
	if u, ok := c.Dims(1); ok {
		if len(u) != len(x) {
			return c.Errorf("update shape %v and cache shape %v differ in rank", u, x)
		}
		for d := range u {
			if u[d] < 0 || x[d] < 0 {
				continue
			}
			if d == ax && u[d] > x[d] || d != ax && u[d] != x[d] {
				return c.Errorf("update shape %v does not fit cache shape %v along axis %d", u, x, a.Axis)
			}
		}
	}
	if r := c.Rank(2); r >= 0 && r != 1 {
		return c.Errorf("write_indices have rank %d, want 1", r)
	}
	if l := c.VecLen(2); l >= 0 && x[0] >= 0 && l != x[0] {
		return c.Errorf("write_indices have %d elements, the batch %d", l, x[0])
	}
	return nil
}
