package model

func init() {
	RegisterOp(&Op{
		Type: "LSTM",
		Versions: []Version{
			{Since: 1, MinIn: 3, MaxIn: 8, MaxOut: 3},
		},
		InputNames: []string{"X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			r, err := bindRecurrent(n, opset, 4, RNNActSigmoid, RNNActTanh, RNNActTanh)
			if err != nil {
				return nil, err
			}
			a := &LSTMAttrs{RecurrentAttrs: r}
			if opset < 7 {
				if _, err := n.Int("output_sequence", 0); err != nil {
					return nil, err
				}
			}
			if a.InputForget, err = flagAttr(n, "input_forget", false); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// LSTMAttrs are an LSTM node's attributes. W, R and B hold the input
// (i), output (o), forget (f) and cell (c) gates in that order, and P
// the peepholes Pi, Po, Pf; with f, g and h the three activations
// (Sigmoid, Tanh, Tanh by default), each step computes
//
//	it = f(Xt·Wiᵀ + Ht-1·Riᵀ + Pi ⊙ Ct-1 + Wbi + Rbi)
//	ft = f(Xt·Wfᵀ + Ht-1·Rfᵀ + Pf ⊙ Ct-1 + Wbf + Rbf)
//	ct = g(Xt·Wcᵀ + Ht-1·Rcᵀ + Wbc + Rbc)
//	Ct = ft ⊙ Ct-1 + it ⊙ ct
//	ot = f(Xt·Woᵀ + Ht-1·Roᵀ + Po ⊙ Ct + Wbo + Rbo)
//	Ht = ot ⊙ h(Ct)
//
// Y stacks every step's Ht; Y_h and Y_c hold the last Ht and Ct.
type LSTMAttrs struct {
	RecurrentAttrs
	// InputForget couples the input and forget gates: ft = 1 - it, as
	// ONNX Runtime computes it.
	InputForget bool
}

// Infer implements Rule.
func (a *LSTMAttrs) Infer(c *InferCtx) error { return a.infer(c) }
