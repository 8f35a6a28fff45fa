package model

func init() {
	RegisterOp(&Op{
		Type:       "Transpose",
		Versions:   []Version{{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1}},
		InputNames: []string{"data"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			perm, err := n.Ints("perm", nil)
			if err != nil {
				return nil, err
			}
			seen := make([]bool, len(perm))
			for _, v := range perm {
				if v < 0 || v >= int64(len(perm)) {
					return nil, attrInvalid(n, "perm %v: axis %d out of range", perm, v)
				}
				if seen[v] {
					return nil, attrInvalid(n, "perm %v: axis %d repeated", perm, v)
				}
				seen[v] = true
			}
			return &TransposeAttrs{Perm: perm}, nil
		},
	})
}

// TransposeAttrs are a Transpose node's attributes. Output dim k is
// input dim Perm[k].
type TransposeAttrs struct {
	// Perm is a permutation of [0, rank); nil reverses the dims.
	Perm []int64
}

// Infer implements Rule.
func (a *TransposeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	s, known := c.Dims(0)
	if !known {
		if a.Perm != nil {
			if err := c.RankOK(len(a.Perm)); err != nil {
				return err
			}
			c.SetUnknownDims(0, len(a.Perm))
			return nil
		}
		c.SetUnranked(0)
		return nil
	}
	r := len(s)
	out := c.OutDims(0, r)
	if a.Perm == nil {
		for i := range out {
			out[i] = s[r-1-i]
		}
		return nil
	}
	if len(a.Perm) != r {
		return c.Errorf("perm %v for rank %d", a.Perm, r)
	}
	for i, p := range a.Perm {
		out[i] = s[p]
	}
	return nil
}
