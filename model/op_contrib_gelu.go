package model

// MSDomain is ONNX Runtime's contrib-op domain, "com.microsoft", whose
// transformer ops lintel describes (docs/transformers.md lists them).
const MSDomain = "com.microsoft"

// The activations of ONNX Runtime's contrib domain.
const (
	// MSGeluErf is Gelu and BiasGelu: x·Φ(x) with the exact erf.
	MSGeluErf = iota
	// MSGeluTanh is FastGelu: GELU's tanh approximation.
	MSGeluTanh
	// MSGeluQuick is QuickGelu: x·sigmoid(alpha·x).
	MSGeluQuick
)

func init() {
	act := func(typ string, kind int, minIn, maxIn int, names ...string) {
		RegisterOp(&Op{
			Domain:     MSDomain,
			Type:       typ,
			Versions:   []Version{{Since: 1, MinIn: minIn, MaxIn: maxIn, MaxOut: 1}},
			InputNames: names,
			Bind: func(n *Node, _ int64) (Rule, error) {
				a := &MSGeluAttrs{Kind: kind}
				if kind == MSGeluQuick {
					var err error
					if a.Alpha, err = n.Float("alpha", 1.702); err != nil {
						return nil, err
					}
				}
				return a, nil
			},
		})
	}
	act("Gelu", MSGeluErf, 1, 1, "X")
	act("BiasGelu", MSGeluErf, 2, 2, "A", "B")
	act("FastGelu", MSGeluTanh, 1, 2, "X", "bias")
	act("QuickGelu", MSGeluQuick, 1, 1, "X")
}

// MSGeluAttrs are the attributes of the GELU activations of ONNX
// Runtime's contrib domain: Gelu, BiasGelu, FastGelu and QuickGelu. The
// output has X's shape; the optional second input (BiasGelu's B,
// FastGelu's bias) is 1-D, as long as X's last dim, and is added to
// every row of X first.
type MSGeluAttrs struct {
	// Kind is MSGeluErf, MSGeluTanh or MSGeluQuick.
	Kind int
	// Alpha is QuickGelu's alpha (default 1.702).
	Alpha float32
}

// Infer implements Rule.
func (a *MSGeluAttrs) Infer(c *InferCtx) error {
	c.Same(0, 0)
	b, ok := c.Dims(1)
	if !ok {
		return nil
	}
	last := -1
	if x, ok := c.Dims(0); ok {
		if len(x) == 0 {
			return c.Errorf("X is a scalar; the bias needs a last dim")
		}
		last = x[len(x)-1]
	}
	if len(b) != 1 || dimsConflict(b[0], last) {
		return c.Errorf("bias has shape %v, want [%d] (X's last dim)", b, last)
	}
	return nil
}
