package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	for _, t := range []string{"ArgMax", "ArgMin"} {
		RegisterOp(&Op{
			Type: t,
			Versions: []Version{
				{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			},
			InputNames: []string{"data"},
			Bind:       bindArg,
		})
	}
}

func bindArg(n *Node, opset int64) (Rule, error) {
	a := &ArgAttrs{}
	var err error
	if a.Axis, err = n.Int("axis", 0); err != nil {
		return nil, err
	}
	if a.KeepDims, err = flagAttr(n, "keepdims", true); err != nil {
		return nil, err
	}
	if opset >= 12 {
		if a.SelectLast, err = flagAttr(n, "select_last_index", false); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// ArgAttrs are an ArgMax or ArgMin node's attributes. The int64 output
// holds the index of the largest (smallest) element along Axis.
type ArgAttrs struct {
	// Axis is the reduced axis; negative counts from the end.
	Axis int64
	// KeepDims keeps the reduced axis with size 1.
	KeepDims bool
	// SelectLast picks the last index of tied elements, not the first
	// (select_last_index, from opset 12).
	SelectLast bool
}

// Infer implements Rule.
func (a *ArgAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Int64)
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	ax, err := c.Axis(a.Axis, len(x))
	if err != nil {
		return err
	}
	if x[ax] == 0 {
		return c.Errorf("axis %d of shape %v is empty", a.Axis, x)
	}
	if a.KeepDims {
		out := c.OutDims(0, len(x))
		copy(out, x)
		out[ax] = 1
		return nil
	}
	out := c.OutDims(0, len(x)-1)
	copy(out, x[:ax])
	copy(out[ax:], x[ax+1:])
	return nil
}
