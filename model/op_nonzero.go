package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "NonZero",
		Versions:   []Version{{Since: 9, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"X"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &NonZeroAttrs{}, nil },
	})
}

// NonZeroAttrs are a NonZero node's attributes (it has none). The output
// is int64 [rank, count]: the indices of the input's non-zero elements.
// The count depends on the input's contents: the rule leaves it unknown
// (-1) and backends fill it in.
type NonZeroAttrs struct{}

// Infer implements Rule.
func (a *NonZeroAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Int64)
	out := c.OutDims(0, 2)
	out[0], out[1] = c.Rank(0), -1
	return nil
}
