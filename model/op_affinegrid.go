package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type:       "AffineGrid",
		Versions:   []Version{{Since: 20, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}}},
		InputNames: []string{"theta", "size"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			ac, err := flagAttr(n, "align_corners", false)
			if err != nil {
				return nil, err
			}
			return &AffineGridAttrs{AlignCorners: ac}, nil
		},
	})
}

// AffineGridAttrs are an AffineGrid node's attributes. theta is N×2×3
// (2-D) or N×3×4 (3-D) and size is the image's N×C×H×W or N×C×D×H×W; the
// output, N×H×W×2 or N×D×H×W×3, is theta applied to each element's
// normalized coordinates (x, y[, z]) in [-1, 1].
type AffineGridAttrs struct {
	// AlignCorners is align_corners: -1 and 1 are the centres of the
	// corner elements rather than their outer edges.
	AlignCorners bool
}

// Infer implements Rule.
func (a *AffineGridAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("size has element type %s, want int64", dt)
	}
	if r := c.Rank(1); r >= 0 && r != 1 {
		return c.Errorf("size has rank %d, want 1", r)
	}
	th, tok := c.Dims(0)
	if tok && (len(th) != 3 || (th[1] >= 0 && th[1] != 2 && th[1] != 3) || (th[1] >= 0 && th[2] >= 0 && th[2] != th[1]+1)) {
		return c.Errorf("theta of shape %v: want N×2×3 or N×3×4", th)
	}
	nd := -1
	if l := c.VecLen(1); l >= 0 {
		if l != 4 && l != 5 {
			return c.Errorf("size has %d values: want 4 (N, C, H, W) or 5 (N, C, D, H, W)", l)
		}
		nd = l - 2
	}
	if tok && th[1] >= 0 {
		if nd >= 0 && nd != th[1] {
			return c.Errorf("theta of shape %v for %d spatial dims", th, nd)
		}
		nd = th[1]
	}
	if nd < 0 {
		c.SetUnranked(0)
		return nil
	}
	out := c.OutDims(0, nd+2)
	for i := range out {
		out[i] = -1
	}
	out[nd+1] = nd
	if tok {
		out[0] = th[0]
	}
	size, ok := c.Ints(1)
	if !ok {
		return nil
	}
	for i, v := range size {
		d, err := c.Dim(v, "size")
		if err != nil {
			return err
		}
		switch {
		case i == 0:
			if dimsConflict(out[0], d) {
				return c.Errorf("theta of shape %v for size %v", th, size)
			}
			out[0] = d
		case i >= 2:
			out[i-1] = d
		}
	}
	return checkNumel(c, out)
}
