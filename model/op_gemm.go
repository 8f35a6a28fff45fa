package model

func init() {
	RegisterOp(&Op{
		Type: "Gemm",
		Versions: []Version{
			{Since: 1, MinIn: 3, MaxIn: 3, MaxOut: 1},
			{Since: 11, MinIn: 2, MaxIn: 3, MaxOut: 1},
		},
		InputNames: []string{"A", "B", "C"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &GemmAttrs{BroadcastC: true}
			var err error
			if a.TransA, err = flagAttr(n, "transA", false); err != nil {
				return nil, err
			}
			if a.TransB, err = flagAttr(n, "transB", false); err != nil {
				return nil, err
			}
			if a.Alpha, err = n.Float("alpha", 1); err != nil {
				return nil, err
			}
			if a.Beta, err = n.Float("beta", 1); err != nil {
				return nil, err
			}
			if opset < 7 {
				if a.BroadcastC, err = flagAttr(n, "broadcast", false); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
	})
}

// GemmAttrs are a Gemm node's attributes: Y = Alpha*op(A)*op(B) + Beta*C,
// with op(A) of shape (M, K), op(B) of shape (K, N) and Y of shape
// (M, N).
type GemmAttrs struct {
	// TransA and TransB transpose A and B before the product.
	TransA, TransB bool
	// Alpha scales the product and Beta scales C.
	Alpha, Beta float32
	// BroadcastC says that C broadcasts unidirectionally to (M, N), as it
	// always does from opset 7. Before, it is the broadcast attribute,
	// and C must have shape (M, N) when it is not set.
	BroadcastC bool
}

// Infer implements Rule.
func (a *GemmAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	m, k1, k2, n := -1, -1, -1, -1
	if d, ok := c.Dims(0); ok {
		if len(d) != 2 {
			return c.Errorf("A has rank %d, want 2", len(d))
		}
		m, k1 = d[0], d[1]
		if a.TransA {
			m, k1 = k1, m
		}
	}
	if d, ok := c.Dims(1); ok {
		if len(d) != 2 {
			return c.Errorf("B has rank %d, want 2", len(d))
		}
		k2, n = d[0], d[1]
		if a.TransB {
			k2, n = n, k2
		}
	}
	if dimsConflict(k1, k2) {
		return c.Errorf("inner dims %d and %d differ (transA=%t, transB=%t)", k1, k2, a.TransA, a.TransB)
	}
	if cs, ok := c.Dims(2); ok && !gemmCOK(cs, m, n, a.BroadcastC) {
		return c.Errorf("C of shape %v does not broadcast to [%d %d]", cs, m, n)
	}
	out := c.OutDims(0, 2)
	out[0], out[1] = m, n
	return nil
}

// gemmCOK reports whether C's shape cs may be (M, N), or broadcast to it
// unidirectionally when bcast is set; unknown sizes are -1.
func gemmCOK(cs []int, m, n int, bcast bool) bool {
	if !bcast {
		return len(cs) == 2 && !dimsConflict(cs[0], m) && !dimsConflict(cs[1], n)
	}
	if len(cs) > 2 {
		return false
	}
	want := [2]int{m, n}
	for i, d := range cs {
		if w := want[2-len(cs)+i]; d != 1 && dimsConflict(d, w) {
			return false
		}
	}
	return true
}
