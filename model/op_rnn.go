package model

func init() {
	RegisterOp(&Op{
		Type: "RNN",
		Versions: []Version{
			{Since: 1, MinIn: 3, MaxIn: 6, MaxOut: 2},
		},
		InputNames: []string{"X", "W", "R", "B", "sequence_lens", "initial_h"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			r, err := bindRecurrent(n, opset, 1, RNNActTanh)
			if err != nil {
				return nil, err
			}
			if opset < 7 {
				// output_sequence (opsets 1 to 6) only says whether Y is
				// wanted, which the node's outputs say too.
				if _, err := n.Int("output_sequence", 0); err != nil {
					return nil, err
				}
			}
			return &RNNAttrs{RecurrentAttrs: r}, nil
		},
	})
}

// RNNAttrs are an RNN node's attributes. Each step computes
// Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + Wb + Rb); f is Tanh unless activations says
// otherwise. W is [dirs, hidden, input], R [dirs, hidden, hidden] and B
// [dirs, 2·hidden]. Y stacks every step's Ht ([seq, dirs, batch,
// hidden], layout 1: [batch, seq, dirs, hidden]) and Y_h holds the last.
type RNNAttrs struct {
	RecurrentAttrs
}

// Infer implements Rule.
func (a *RNNAttrs) Infer(c *InferCtx) error { return a.infer(c) }
