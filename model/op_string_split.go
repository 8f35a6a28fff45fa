package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "StringSplit",
		Versions:   []Version{{Since: 20, MinIn: 1, MaxIn: 1, MaxOut: 2}},
		InputNames: []string{"X"},
		Bind:       bindStringSplit,
	})
}

// StringSplitAttrs are a StringSplit node's attributes. Output 0 (Y)
// has the input's dims and one more, the largest number of substrings
// any element splits into; shorter rows are padded with empty strings.
// Output 1 (Z, int64) has the input's shape and holds each element's
// count. That last dim depends on the input's contents: the rule leaves
// it unknown (-1) and backends fill it in.
type StringSplitAttrs struct {
	// Delimiter splits the strings; empty (the default) splits at runs
	// of whitespace and drops leading and trailing whitespace, as
	// Python's str.split() does.
	Delimiter string
	// MaxSplit bounds the number of splits; negative for no bound.
	MaxSplit int64
}

func bindStringSplit(n *Node, opset int64) (Rule, error) {
	a := &StringSplitAttrs{MaxSplit: -1}
	var err error
	if a.Delimiter, err = n.String("delimiter", ""); err != nil {
		return nil, err
	}
	if n.Has("maxsplit") {
		if a.MaxSplit, err = n.Int("maxsplit", 0); err != nil {
			return nil, err
		}
		if a.MaxSplit < 0 {
			a.MaxSplit = -1
		}
	}
	return a, nil
}

// Infer implements Rule.
func (a *StringSplitAttrs) Infer(c *InferCtx) error {
	if dt := c.DType(0); dt != payload.String && dt != payload.Undefined {
		return c.Errorf("input has element type %s, want string", dt)
	}
	c.SetType(0, payload.String)
	c.SetType(1, payload.Int64)
	d, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		c.SetUnranked(1)
		return nil
	}
	if err := c.RankOK(len(d) + 1); err != nil {
		return err
	}
	out := c.OutDims(0, len(d)+1)
	copy(out, d)
	out[len(d)] = -1
	c.SetDims(1, d)
	return nil
}
