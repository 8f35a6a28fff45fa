package cpu

import "github.com/lintel-ml/lintel/model"

// identityKernel passes input 0 through as a view: Identity, and Dropout
// in inference. Dropout's optional mask output is all true from opset 12,
// and all false before, as ONNX Runtime gives it. The descriptors' rules
// (model.UnaryAttrs, model.DropoutAttrs) set the outputs' shapes.
type identityKernel struct {
	n    *model.Node
	mask byte
}

func (k *identityKernel) aliasInput() int { return 0 }

// run fills Dropout's mask; the executor makes output 0 a view itself.
func (k *identityKernel) run(in, out []*tensor) error {
	for _, o := range out[1:] {
		for i := range o.data {
			o.data[i] = k.mask
		}
	}
	return nil
}

func init() {
	register("Identity", func(c *buildCtx) (kernel, error) {
		if len(c.in) > 0 && c.in[0].Kind != model.KindTensor {
			return newSeqKernel(c, "copy", false)
		}
		return &identityKernel{n: c.n}, nil
	})
	register("Dropout", func(c *buildCtx) (kernel, error) {
		if c.rule.(*model.DropoutAttrs).Training {
			return nil, c.unsupported("training mode (is_test=0, the default before opset 7) is not supported")
		}
		if c.n.Input(2) != "" {
			t := c.constInput(2)
			if t == nil {
				return nil, c.unsupported("a computed training_mode input is not supported")
			}
			v, err := t.Int64s()
			if err != nil || len(v) != 1 {
				return nil, c.invalid("training_mode must be a boolean scalar")
			}
			if v[0] != 0 {
				return nil, c.unsupported("training mode is not supported")
			}
		}
		k := &identityKernel{n: c.n}
		if c.opset >= 12 {
			k.mask = 1
		}
		return k, nil
	})
}
