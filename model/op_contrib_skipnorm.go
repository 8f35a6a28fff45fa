package model

func init() {
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "SkipLayerNormalization",
		Versions:   []Version{{Since: 1, MinIn: 3, MaxIn: 5, MaxOut: 4}},
		InputNames: []string{"input", "skip", "gamma", "beta", "bias"},
		Bind:       func(n *Node, _ int64) (Rule, error) { return bindSkipNorm(n, false) },
	})
	RegisterOp(&Op{
		Domain:     MSDomain,
		Type:       "SkipSimplifiedLayerNormalization",
		Versions:   []Version{{Since: 1, MinIn: 3, MaxIn: 4, MaxOut: 4}},
		InputNames: []string{"input", "skip", "gamma", "bias"},
		Bind:       func(n *Node, _ int64) (Rule, error) { return bindSkipNorm(n, true) },
	})
}

func bindSkipNorm(n *Node, simplified bool) (Rule, error) {
	a := &SkipNormAttrs{Simplified: simplified, Beta: 3, Bias: 4}
	if simplified {
		a.Beta, a.Bias = -1, 3
	}
	var err error
	if a.Epsilon, err = n.Float("epsilon", 1e-12); err != nil {
		return nil, err
	}
	if !(a.Epsilon >= 0) {
		return nil, attrErr(n, "epsilon %v is negative", a.Epsilon)
	}
	return a, nil
}

// SkipNormAttrs are the attributes of ONNX Runtime's
// SkipLayerNormalization and SkipSimplifiedLayerNormalization
// (com.microsoft). Each row of input + skip + bias along the last dim
// (the hidden size) is normalised: to zero mean and unit variance, then
// times gamma plus beta; or, Simplified, divided by its root mean
// square, then times gamma. input is 3-D (batch, sequence, hidden) or
// 2-D (tokens, hidden); skip has input's shape, or one batch item's
// ((1, sequence, hidden) or (sequence, hidden)) for every batch item;
// gamma, beta and bias are 1-D (hidden). Outputs: the result, mean and
// inv_std_var (input's dims with a last dim of 1) and
// input_skip_bias_sum (input's shape).
type SkipNormAttrs struct {
	// Epsilon is added to the variance (default 1e-12).
	Epsilon float32
	// Simplified selects the root-mean-square form, which has no beta.
	Simplified bool
	// Beta and Bias are the positions of the beta and bias inputs; Beta
	// is -1 when Simplified.
	Beta, Bias int
}

// Infer implements Rule.
func (a *SkipNormAttrs) Infer(c *InferCtx) error {
	dt := c.DType(0)
	for j := range c.NumOut() {
		c.SetType(j, dt)
	}
	x, ok := c.Dims(0)
	if !ok {
		for j := range c.NumOut() {
			c.SetUnranked(j)
		}
		return nil
	}
	if len(x) != 2 && len(x) != 3 {
		return c.Errorf("input has rank %d, want 2 or 3", len(x))
	}
	h := x[len(x)-1]
	if s, ok := c.Dims(1); ok {
		if !skipShapeOK(x, s) {
			return c.Errorf("skip has shape %v; want %v or one batch item of it", s, x)
		}
	}
	for _, i := range [3]int{2, a.Beta, a.Bias} {
		if i < 0 {
			continue
		}
		if d, ok := c.Dims(i); ok && (len(d) != 1 || dimsConflict(d[0], h)) {
			return c.Errorf("input %d has shape %v, want [%d]", i, d, h)
		}
	}
	c.Same(0, 0)
	for j := 1; j < c.NumOut(); j++ {
		if j == 3 {
			c.Same(3, 0)
			c.SetType(3, dt)
			continue
		}
		s := c.OutDims(j, len(x))
		copy(s, x)
		s[len(s)-1] = 1
	}
	return nil
}

// skipShapeOK reports whether a skip of shape s may go with an input of
// shape x: the same shape, or (for a 3-D input) one batch item's, with
// or without its leading 1. Unknown dims pass.
func skipShapeOK(x, s []int) bool {
	switch {
	case len(s) == len(x):
		for i := range s {
			if i == 0 && len(x) == 3 && s[0] == 1 {
				continue
			}
			if dimsConflict(s[i], x[i]) {
				return false
			}
		}
		return true
	case len(x) == 3 && len(s) == 2:
		return !dimsConflict(s[0], x[1]) && !dimsConflict(s[1], x[2])
	}
	return false
}
