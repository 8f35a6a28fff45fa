package model

import "math"

func init() {
	RegisterOp(&Op{
		Type: "NegativeLogLikelihoodLoss",
		Versions: []Version{
			{Since: 12, MinIn: 2, MaxIn: 3, MaxOut: 1},
		},
		InputNames: []string{"input", "target", "weight"},
		Bind:       bindLoss,
	})
	RegisterOp(&Op{
		Type: "SoftmaxCrossEntropyLoss",
		Versions: []Version{
			{Since: 12, MinIn: 2, MaxIn: 3, MaxOut: 2},
		},
		InputNames: []string{"scores", "labels", "weights"},
		Bind:       bindLoss,
	})
}

// LossReduction is how a loss op reduces its per-element losses.
type LossReduction uint8

// The reductions of the loss ops' reduction attribute.
const (
	// LossMean divides the sum of the weighted losses by the sum of
	// the weights of the elements not ignored.
	LossMean LossReduction = iota
	// LossSum sums the weighted losses.
	LossSum
	// LossNone keeps one loss per target element.
	LossNone
)

func bindLoss(n *Node, opset int64) (Rule, error) {
	a := &LossAttrs{Softmax: n.OpType == "SoftmaxCrossEntropyLoss", IgnoreIndex: math.MinInt64}
	r, err := n.String("reduction", "mean")
	if err != nil {
		return nil, err
	}
	switch r {
	case "mean":
		a.Reduction = LossMean
	case "sum":
		a.Reduction = LossSum
	case "none":
		a.Reduction = LossNone
	default:
		return nil, attrErr(n, "reduction must be \"mean\", \"sum\" or \"none\", got %q", r)
	}
	if n.Has("ignore_index") {
		if a.IgnoreIndex, err = n.Int("ignore_index", 0); err != nil {
			return nil, err
		}
		a.HasIgnore = true
	}
	return a, nil
}

// LossAttrs are a NegativeLogLikelihoodLoss or SoftmaxCrossEntropyLoss
// node's attributes. The input is N×C or N×C×D1×…, the integer target
// N or N×D1×… with class indices in [0, C), the optional weight one
// value per class. Each target element's loss is minus the input (for
// SoftmaxCrossEntropyLoss, its log-softmax over C) at the target class,
// times that class's weight. The output is the reduced loss: a scalar,
// or the target's shape for LossNone. SoftmaxCrossEntropyLoss's
// optional second output is the log-softmax, with the input's shape.
type LossAttrs struct {
	// Softmax is set for SoftmaxCrossEntropyLoss.
	Softmax bool
	// Reduction is the reduction attribute; LossMean by default.
	Reduction LossReduction
	// IgnoreIndex is the ignore_index attribute, when HasIgnore: target
	// elements equal to it add nothing to the loss or to the weights.
	IgnoreIndex int64
	HasIgnore   bool
}

// Infer implements Rule.
func (a *LossAttrs) Infer(c *InferCtx) error {
	dt := c.DType(0)
	if c.NumOut() > 1 {
		c.Same(1, 0)
	}
	c.SetType(0, dt)
	x, xok := c.Dims(0)
	t, tok := c.Dims(1)
	if xok && len(x) < 2 {
		return c.Errorf("input %v must have rank 2 or more (N×C×D1×…)", x)
	}
	if xok && tok {
		if len(t) != len(x)-1 {
			return c.Errorf("target %v must have the input's %v shape without its class dim", t, x)
		}
		for i := range t {
			j := i
			if i > 0 {
				j = i + 1
			}
			if dimsConflict(t[i], x[j]) {
				return c.Errorf("target %v must have the input's %v shape without its class dim", t, x)
			}
		}
	}
	if w, ok := c.Dims(2); ok {
		if len(w) != 1 || (xok && dimsConflict(w[0], x[1])) {
			return c.Errorf("weight %v must hold one value per class of input %v", w, x)
		}
	}
	if a.Reduction != LossNone {
		c.OutDims(0, 0)
		return nil
	}
	switch {
	case tok:
		out := c.OutDims(0, len(t))
		copy(out, t)
		for i := range out {
			if out[i] < 0 && xok {
				j := i
				if i > 0 {
					j = i + 1
				}
				out[i] = x[j]
			}
		}
	case xok:
		out := c.OutDims(0, len(x)-1)
		out[0] = x[0]
		copy(out[1:], x[2:])
	default:
		c.SetUnranked(0)
	}
	return nil
}
