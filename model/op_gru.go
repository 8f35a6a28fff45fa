package model

func init() {
	RegisterOp(&Op{
		Type: "GRU",
		Versions: []Version{
			{Since: 1, MinIn: 3, MaxIn: 6, MaxOut: 2},
		},
		InputNames: []string{"X", "W", "R", "B", "sequence_lens", "initial_h"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			r, err := bindRecurrent(n, opset, 3, RNNActSigmoid, RNNActTanh)
			if err != nil {
				return nil, err
			}
			a := &GRUAttrs{RecurrentAttrs: r}
			if opset < 7 {
				if _, err := n.Int("output_sequence", 0); err != nil {
					return nil, err
				}
			}
			if opset >= 3 {
				if a.LinearBeforeReset, err = flagAttr(n, "linear_before_reset", false); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
	})
}

// GRUAttrs are a GRU node's attributes. W, R and B hold the update (z),
// reset (r) and hidden (h) gates in that order; with f and g the two
// activations (Sigmoid and Tanh by default), each step computes
//
//	zt = f(Xt·Wzᵀ + Ht-1·Rzᵀ + Wbz + Rbz)
//	rt = f(Xt·Wrᵀ + Ht-1·Rrᵀ + Wbr + Rbr)
//	ht = g(Xt·Whᵀ + (rt ⊙ Ht-1)·Rhᵀ + Rbh + Wbh)
//	Ht = (1 - zt) ⊙ ht + zt ⊙ Ht-1
//
// or, with LinearBeforeReset, ht = g(Xt·Whᵀ + rt ⊙ (Ht-1·Rhᵀ + Rbh) + Wbh).
type GRUAttrs struct {
	RecurrentAttrs
	// LinearBeforeReset applies the reset gate after the product by Rh
	// (opset 3 on).
	LinearBeforeReset bool
}

// Infer implements Rule.
func (a *GRUAttrs) Infer(c *InferCtx) error { return a.infer(c) }
