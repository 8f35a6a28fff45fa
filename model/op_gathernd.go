package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "GatherND",
		Versions:   []Version{{Since: 11, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"data", "indices"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &GatherNDAttrs{}
			if opset >= 12 {
				var err error
				if a.BatchDims, err = n.Int("batch_dims", 0); err != nil {
					return nil, err
				}
				if a.BatchDims < 0 {
					return nil, invalidAttr(n, "batch_dims is %d, want 0 or more", a.BatchDims)
				}
			}
			return a, nil
		},
	})
}

// GatherNDAttrs are a GatherND node's attributes. Each row of the
// indices' last axis (k int64 coordinates, negatives counting from the
// end) picks the slice of the data at those coordinates of the dims
// after the first BatchDims; the output has shape indices[:-1] +
// data[BatchDims+k:]. The first BatchDims dims of data and indices are
// batch dims, equal in both.
type GatherNDAttrs struct {
	// BatchDims is the number of leading batch dims (opset 12 on).
	BatchDims int64
}

// Infer implements Rule.
func (a *GatherNDAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("indices have element type %s, want int64", dt)
	}
	x, okx := c.Dims(0)
	idx, oki := c.Dims(1)
	if !okx || !oki {
		c.SetUnranked(0)
		return nil
	}
	r, q := int64(len(x)), int64(len(idx))
	b := a.BatchDims
	if q < 1 || r < 1 || b >= min(q, r) {
		return c.Errorf("batch_dims %d with data shape %v and indices shape %v: want batch_dims below both ranks", b, x, idx)
	}
	for d := range int(b) {
		if x[d] >= 0 && idx[d] >= 0 && x[d] != idx[d] {
			return c.Errorf("batch dims of data shape %v and indices shape %v differ", x, idx)
		}
	}
	k := idx[q-1]
	if k < 0 {
		c.SetUnranked(0)
		return nil
	}
	if int64(k) > r-b {
		return c.Errorf("indices shape %v addresses %d dims of data shape %v past %d batch dims", idx, k, x, b)
	}
	or := int(q) - 1 + int(r-b) - k
	if err := c.RankOK(or); err != nil {
		return err
	}
	out := c.OutDims(0, or)
	copy(out, idx[:q-1])
	copy(out[q-1:], x[int(b)+k:])
	for d := range int(b) {
		if out[d] < 0 {
			out[d] = x[d]
		}
	}
	return nil
}
