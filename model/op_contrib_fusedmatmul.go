package model

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "FusedMatMul",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"A", "B"},
		Bind: func(n *Node, _ int64) (Rule, error) {
			a := &FusedMatMulAttrs{}
			var err error
			if a.Alpha, err = n.Float("alpha", 1); err != nil {
				return nil, err
			}
			for _, f := range []struct {
				name string
				p    *bool
			}{{"transA", &a.TransA}, {"transB", &a.TransB}, {"transBatchA", &a.TransBatchA}, {"transBatchB", &a.TransBatchB}} {
				if *f.p, err = flagAttr(n, f.name, false); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
	})
}

// FusedMatMulAttrs are the attributes of ONNX Runtime's FusedMatMul
// (com.microsoft): Y = Alpha·op(A)·op(B), where op transposes the last
// two dims when TransA (TransB) is set, with MatMul's broadcasting of
// the batch dims. A 1-D operand is a row (A) or a column (B), as in
// MatMul, and is never transposed.
type FusedMatMulAttrs struct {
	Alpha          float32
	TransA, TransB bool
	// TransBatchA and TransBatchB move the batch dims after the rows
	// before multiplying; lintel refuses them.
	TransBatchA, TransBatchB bool
}

// Infer implements Rule.
func (a *FusedMatMulAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	x, ok1 := c.Dims(0)
	y, ok2 := c.Dims(1)
	if !ok1 || !ok2 {
		c.SetUnranked(0)
		return nil
	}
	ra, rb := len(x), len(y)
	if ra == 0 || rb == 0 {
		return c.Errorf("operands %v and %v: a scalar operand does not multiply", x, y)
	}
	m, ka := 1, x[ra-1]
	if ra > 1 {
		m = x[ra-2]
		if a.TransA {
			m, ka = ka, m
		}
	}
	kb, n := y[0], 1
	if rb > 1 {
		kb, n = y[rb-2], y[rb-1]
		if a.TransB {
			kb, n = n, kb
		}
	}
	if dimsConflict(ka, kb) {
		return c.Errorf("shapes %v and %v do not multiply (K is %d and %d)", x, y, ka, kb)
	}
	na, nb := max(ra-2, 0), max(rb-2, 0)
	r := max(na, nb)
	out := c.OutDims(0, r+min(ra, 2)+min(rb, 2)-2)
	for i := range r {
		da, db := 1, 1
		if j := i - (r - na); j >= 0 {
			da = x[j]
		}
		if j := i - (r - nb); j >= 0 {
			db = y[j]
		}
		d, ok := bcastDim(da, db)
		if !ok {
			return c.Errorf("batch dims of %v and %v do not broadcast", x, y)
		}
		out[i] = d
	}
	i := r
	if ra > 1 {
		out[i] = m
		i++
	}
	if rb > 1 {
		out[i] = n
	}
	return nil
}
