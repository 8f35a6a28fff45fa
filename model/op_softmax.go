package model

func init() {
	for _, t := range []string{"Softmax", "LogSoftmax"} {
		RegisterOp(&Op{
			Type: t,
			Versions: []Version{
				{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			},
			InputNames: []string{"input"},
			Bind:       bindSoftmax,
		})
	}
}

func bindSoftmax(n *Node, opset int64) (Rule, error) {
	a := &SoftmaxAttrs{Coerce: opset < 13}
	def := int64(-1)
	if a.Coerce {
		def = 1
	}
	var err error
	if a.Axis, err = n.Int("axis", def); err != nil {
		return nil, err
	}
	return a, nil
}

// SoftmaxAttrs are a Softmax or LogSoftmax node's attributes. The output
// has the input's shape.
type SoftmaxAttrs struct {
	// Axis is the normalised axis; negative counts from the end. Its
	// default is 1 before opset 13 and -1 from then on.
	Axis int64
	// Coerce is set before opset 13: the input is seen as a matrix of
	// the dims before Axis by the dims from Axis on, and each of its rows
	// is normalised. From opset 13 only the one axis is.
	Coerce bool
}

// Infer implements Rule.
func (a *SoftmaxAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	r := c.Rank(0)
	switch {
	case r < 0 || !c.Runtime():
		// At load an axis out of range is left to the backends, which
		// refuse it when they build the node, as inference always has.
	case r == 0:
		// A scalar is one row of one element.
		if a.Axis != 0 && a.Axis != -1 {
			return c.Errorf("axis %d out of range for a scalar", a.Axis)
		}
	default:
		if _, err := c.Axis(a.Axis, r); err != nil {
			return err
		}
	}
	return nil
}
