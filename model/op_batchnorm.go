package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "BatchNormalization",
		Versions: []Version{
			// Y, then mean, var, saved_mean and saved_var in training.
			{Since: 1, MinIn: 5, MaxIn: 5, MaxOut: 5},
			// Y, then running_mean and running_var in training.
			{Since: 14, MinIn: 5, MaxIn: 5, MaxOut: 3},
		},
		InputNames: []string{"X", "scale", "B", "input_mean", "input_var"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &BatchNormAttrs{}
			var err error
			if a.Epsilon, err = n.Float("epsilon", 1e-5); err != nil {
				return nil, err
			}
			if a.Momentum, err = n.Float("momentum", 0.9); err != nil {
				return nil, err
			}
			// spatial is an attribute of opsets before 9; a later node
			// that still carries it is read the same way.
			if a.Spatial, err = flagAttr(n, "spatial", true); err != nil {
				return nil, err
			}
			switch {
			case opset >= 14:
				a.Training, err = flagAttr(n, "training_mode", false)
			case opset < 7:
				// is_test defaults to 0, training, as the spec of those
				// opsets says: a file that leaves it out is refused rather
				// than run with statistics it did not ask for.
				a.Training, err = flagAttr(n, "is_test", false)
				a.Training = !a.Training
			}
			if err != nil {
				return nil, err
			}
			return a, nil
		},
	})
}

// BatchNormAttrs are a BatchNormalization node's attributes. In
// inference, Y = (X - mean) / sqrt(var + Epsilon) * scale + B per channel
// (dim 1 of X), the four parameters holding one value per channel.
type BatchNormAttrs struct {
	// Epsilon is added to the variance.
	Epsilon float32
	// Momentum weighs the running statistics in training.
	Momentum float32
	// Spatial is false for spatial=0 (opsets before 9): the statistics
	// are per element of X's dims after N, not per channel.
	Spatial bool
	// Training is set for training_mode=1 (from opset 14) or is_test=0
	// (before opset 7): the statistics come from the batch and the
	// optional outputs are computed.
	Training bool
}

// Infer implements Rule.
func (a *BatchNormAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	x, ok := c.Dims(0)
	if ok && len(x) < 2 {
		return c.Errorf("X has shape %v, want rank 2 or more (N×C×…)", x)
	}
	// stat is the shape of the parameters and the statistics: [C], or
	// X's dims after N when not Spatial; nil when unknown.
	var stat []int
	if ok {
		stat = x[1:2]
		if !a.Spatial {
			stat = x[1:]
		}
	}
	for i := 1; i < 5; i++ {
		p, pok := c.Dims(i)
		if !pok {
			continue
		}
		if stat == nil {
			if a.Spatial && len(p) != 1 {
				return c.Errorf("input %d has shape %v, want one value per channel", i, p)
			}
			continue
		}
		bad := len(p) != len(stat)
		for j := 0; !bad && j < len(p); j++ {
			bad = dimsConflict(p[j], stat[j])
		}
		if bad {
			return c.Errorf("input %d has shape %v, want %v for input %v", i, p, stat, x)
		}
	}
	st := c.DType(3)
	if st == payload.Undefined {
		st = c.DType(0)
	}
	for j := 1; j < c.NumOut(); j++ {
		c.SetType(j, st)
		switch {
		case stat != nil:
			c.SetDims(j, stat)
		case a.Spatial:
			c.SetUnknownDims(j, 1)
		default:
			c.SetUnranked(j)
		}
	}
	return nil
}
