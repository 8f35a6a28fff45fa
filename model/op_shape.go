package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "Shape",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"data"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ShapeAttrs{}
			if opset < 15 {
				return a, nil
			}
			var err error
			if a.Start, err = n.Int("start", 0); err != nil {
				return nil, err
			}
			if a.End, err = n.Int("end", 0); err != nil {
				return nil, err
			}
			a.HasEnd = n.Has("end")
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "Size",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"data"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return &SizeAttrs{}, nil },
	})
}

// ShapeAttrs are a Shape node's attributes. The output is the 1-D int64
// list of the input's dims from Start to End (opset 15); both count from
// the end when negative and are clamped to [0, rank].
type ShapeAttrs struct {
	// Start is the first dim, 0 by default.
	Start int64
	// End is the dim after the last, when HasEnd.
	End    int64
	HasEnd bool
}

// Span returns the dims [s, e) the output lists for an input of rank r.
func (a *ShapeAttrs) Span(r int) (s, e int) {
	clamp := func(v int64) int {
		if v < 0 {
			v += int64(r)
		}
		return int(max(0, min(v, int64(r))))
	}
	s, e = clamp(a.Start), r
	if a.HasEnd {
		e = clamp(a.End)
	}
	return s, max(s, e)
}

// Infer implements Rule.
func (a *ShapeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Int64)
	r := c.Rank(0)
	out := c.OutDims(0, 1)
	if r < 0 {
		out[0] = -1
		return nil
	}
	s, e := a.Span(r)
	out[0] = e - s
	return nil
}

// SizeAttrs are a Size node's attributes (it has none). The output is
// the input's element count, an int64 scalar.
type SizeAttrs struct{}

// Infer implements Rule.
func (a *SizeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, payload.Int64)
	c.OutDims(0, 0)
	return nil
}
