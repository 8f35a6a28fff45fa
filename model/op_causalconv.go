package model

func init() {
	RegisterOp(&Op{
		Type: "CausalConvWithState",
		Versions: []Version{
			{Since: 27, MinIn: 2, MaxIn: 4, MaxOut: 2},
		},
		InputNames: []string{"input", "weight", "bias", "past_state"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			act, err := n.String("activation", "none")
			if err != nil {
				return nil, err
			}
			a := &CausalConvAttrs{}
			switch act {
			case "none":
			case "silu", "swish":
				a.SiLU = true
			default:
				return nil, attrErr(n, "activation %q is not none, silu or swish", act)
			}
			return a, nil
		},
	})
}

// CausalConvAttrs are a CausalConvWithState node's attributes. The op is
// a causal depthwise 1-D convolution: input is (batch, channels,
// length), weight (channels, 1, k), the optional bias (channels), and
// the optional past_state (batch, channels, k-1) holds the k-1 values
// before the input (zeros when absent). Each output value is the bias
// plus the weights times the k values ending at its position; the
// optional present_state output holds the last k-1 values of past_state
// followed by input.
type CausalConvAttrs struct {
	// SiLU applies x·sigmoid(x) to the output (activation "silu" or
	// "swish").
	SiLU bool
}

// Infer implements Rule.
func (a *CausalConvAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	b, ch, k := -1, -1, -1
	if x, ok := c.Dims(0); ok {
		if len(x) != 3 {
			return c.Errorf("input has rank %d, want 3", len(x))
		}
		b, ch = x[0], x[1]
	}
	if w, ok := c.Dims(1); ok {
		if len(w) != 3 || dimsConflict(w[0], ch) || dimsConflict(w[1], 1) {
			return c.Errorf("weight has shape %v, want [%d 1 k]", w, ch)
		}
		if w[0] >= 0 {
			ch = w[0]
		}
		k = w[2]
		if k == 0 {
			return c.Errorf("weight has shape %v: the kernel is empty", w)
		}
	}
	if bs, ok := c.Dims(2); ok && (len(bs) != 1 || dimsConflict(bs[0], ch)) {
		return c.Errorf("bias has shape %v, want [%d]", bs, ch)
	}
	km1 := -1
	if k > 0 {
		km1 = k - 1
	}
	if p, ok := c.Dims(3); ok {
		if len(p) != 3 || dimsConflict(p[0], b) || dimsConflict(p[1], ch) || dimsConflict(p[2], km1) {
			return c.Errorf("past_state has shape %v, want [%d %d %d]", p, b, ch, km1)
		}
		if b < 0 {
			b = p[0]
		}
		if km1 < 0 {
			km1 = p[2]
		}
	}
	if c.NumOut() > 1 {
		c.SetType(1, c.DType(0))
		s := c.OutDims(1, 3)
		s[0], s[1], s[2] = b, ch, km1
	}
	return nil
}
