package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "TopK",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 2},
			{Since: 10, MinIn: 2, MaxIn: 2, MaxOut: 2, Values: []int{1}},
		},
		InputNames: []string{"X", "K"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &TopKAttrs{K: -1, Largest: true, Sorted: true}
			var err error
			if a.Axis, err = n.Int("axis", -1); err != nil {
				return nil, err
			}
			if opset < 10 {
				if !n.Has("k") {
					return nil, attrMissing(n, "k")
				}
				if a.K, err = n.Int("k", 0); err != nil {
					return nil, err
				}
				if a.K < 0 {
					return nil, invalidAttr(n, "k is %d, want 0 or more", a.K)
				}
			}
			if opset >= 11 {
				if a.Largest, err = flagAttr(n, "largest", true); err != nil {
					return nil, err
				}
				if a.Sorted, err = flagAttr(n, "sorted", true); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
	})
}

// TopKAttrs are a TopK node's attributes. The outputs are the K largest
// (smallest) elements along Axis and their int64 indices; K is input 1
// (a one-element int64 tensor) from opset 10, the k attribute before.
type TopKAttrs struct {
	// K is the k attribute of opsets before 10; -1 after.
	K int64
	// Axis is the axis searched; negatives count from the end.
	Axis int64
	// Largest picks the largest elements, else the smallest (opset 11).
	Largest bool
	// Sorted asks for the elements in order. Lintel always sorts them,
	// which the spec allows when Sorted is false.
	Sorted bool
}

// Infer implements Rule.
func (a *TopKAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	c.SetType(1, payload.Int64)
	k := a.K
	if a.K < 0 {
		if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
			return c.Errorf("K has element type %s, want int64", dt)
		}
		if d, ok := c.Dims(1); ok && (len(d) > 1 || len(d) == 1 && d[0] >= 0 && d[0] != 1) {
			return c.Errorf("K has shape %v, want one element", d)
		}
		if v, ok := c.Ints(1); ok {
			if len(v) != 1 {
				return c.Errorf("K has %d elements, want one", len(v))
			}
			if k = v[0]; k < 0 {
				return c.Errorf("K is %d, want 0 or more", k)
			}
		}
	}
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		c.SetUnranked(1)
		return nil
	}
	ax, err := c.Axis(a.Axis, len(x))
	if err != nil {
		return err
	}
	if k >= 0 && x[ax] >= 0 && k > int64(x[ax]) {
		return c.Errorf("K is %d, more than the %d elements along axis %d", k, x[ax], a.Axis)
	}
	c.SetDims(0, x)
	out := c.Out(0).Dims
	out[ax] = int(k) // -1 when unknown
	c.SetDims(1, out)
	return nil
}
