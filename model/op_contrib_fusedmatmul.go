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
	_, err := matmulDimsT(c, 0, 1, a.TransA, a.TransB)
	return err
}
