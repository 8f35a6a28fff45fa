package model

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:       "Range",
		Versions:   []Version{{Since: 11, MinIn: 3, MaxIn: 3, MaxOut: 1, Values: []int{0, 1, 2}}},
		InputNames: []string{"start", "limit", "delta"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &RangeAttrs{}, nil },
	})
}

// RangeAttrs are a Range node's attributes (it has none). The output is
// the 1-D start, start+delta, ... up to limit (excluded), of start's
// element type; start, limit and delta are scalars.
type RangeAttrs struct{}

// Infer implements Rule.
func (a *RangeAttrs) Infer(c *InferCtx) error {
	dt := c.DType(0)
	c.SetType(0, dt)
	out := c.OutDims(0, 1)
	out[0] = -1
	if dt.IsFloat() {
		st, ok1 := c.Floats(0)
		li, ok2 := c.Floats(1)
		de, ok3 := c.Floats(2)
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		if len(st) != 1 || len(li) != 1 || len(de) != 1 {
			return c.Errorf("start, limit and delta must hold one value each")
		}
		n, err := rangeFloatLen(c, dt, st[0], li[0], de[0])
		out[0] = n
		return err
	}
	st, ok1 := c.Ints(0)
	li, ok2 := c.Ints(1)
	de, ok3 := c.Ints(2)
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	if len(st) != 1 || len(li) != 1 || len(de) != 1 {
		return c.Errorf("start, limit and delta must hold one value each")
	}
	n, err := rangeIntLen(c, st[0], li[0], de[0])
	out[0] = n
	return err
}

// rangeFloatLen returns ceil((limit-start)/delta), at least 0, computed
// as the kernels and ONNX Runtime do: the difference in the element
// type, the quotient in float64.
func rangeFloatLen(c *InferCtx, dt payload.DType, start, limit, delta float64) (int, error) {
	if delta == 0 || math.IsNaN(delta) {
		return 0, c.Errorf("delta is %v", delta)
	}
	diff := limit - start
	if dt != payload.Float64 {
		diff = float64(float32(limit) - float32(start))
		delta = float64(float32(delta))
	}
	n := math.Ceil(diff / delta)
	if math.IsNaN(n) || n > float64(maxDimValue) {
		return 0, c.Errorf("range of %v elements from %v to %v by %v", n, start, limit, delta)
	}
	return int(max(n, 0)), nil
}

// rangeIntLen returns ceil((limit-start)/delta), at least 0, in exact
// integer arithmetic: the distance between start and limit fits a
// uint64 even when it overflows an int64.
func rangeIntLen(c *InferCtx, start, limit, delta int64) (int, error) {
	if delta == 0 {
		return 0, c.Errorf("delta is 0")
	}
	var dist, step uint64
	switch {
	case delta > 0 && limit > start:
		dist, step = uint64(limit)-uint64(start), uint64(delta)
	case delta < 0 && limit < start:
		dist, step = uint64(start)-uint64(limit), uint64(-(delta+1))+1
	default:
		return 0, nil
	}
	n := (dist-1)/step + 1
	if n > uint64(maxDimValue) {
		return 0, c.Errorf("range of %d elements from %d to %d by %d", n, start, limit, delta)
	}
	return int(n), nil
}
