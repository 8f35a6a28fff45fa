package cpu

import "github.com/lintel-ml/lintel/model"

// identityKernel passes input 0 through as a view: Identity, and Dropout in
// inference (its optional mask output is refused).
type identityKernel struct{ n *model.Node }

func (k *identityKernel) aliasInput() int { return 0 }

func (k *identityKernel) shape(in, out []*tensor) error {
	out[0].setShape(in[0].shape...)
	return nil
}

func (k *identityKernel) run(in, out []*tensor) error { return nil }

func init() {
	register("Identity", func(c *buildCtx) (kernel, error) { return &identityKernel{n: c.n}, nil })
	register("Dropout", func(c *buildCtx) (kernel, error) {
		if len(c.n.Outputs) > 1 && c.n.Outputs[1] != "" {
			return nil, c.unsupported("the mask output is not supported")
		}
		return &identityKernel{n: c.n}, nil
	})
}
