package cpu

import "github.com/lintel-ml/lintel/model"

// optionalHasKernel is OptionalHasElement: true unless the input is
// absent. lintel's values are tensors, which are always present (see
// model.OptionalHasElementAttrs).
type optionalHasKernel struct{}

func (optionalHasKernel) run(in, out []*tensor) error {
	var v byte
	if optIn(in, 0) != nil {
		v = 1
	}
	out[0].data[0] = v
	return nil
}

// optionalViewKernel is Optional with an input and OptionalGetElement
// on a tensor: the output is a view of the input.
type optionalViewKernel struct{}

func (optionalViewKernel) aliasInput() int { return 0 }

func (optionalViewKernel) run(in, out []*tensor) error { return nil }

func init() {
	register("OptionalHasElement", func(c *buildCtx) (kernel, error) {
		_ = c.rule.(*model.OptionalHasElementAttrs)
		return optionalHasKernel{}, nil
	})
	register("OptionalGetElement", func(c *buildCtx) (kernel, error) {
		_ = c.rule.(*model.OptionalGetElementAttrs)
		return optionalViewKernel{}, nil
	})
	register("Optional", func(c *buildCtx) (kernel, error) {
		_ = c.rule.(*model.OptionalAttrs)
		if c.n.Input(0) == "" {
			return nil, c.unsupported("an empty optional (no input) is not supported")
		}
		return optionalViewKernel{}, nil
	})
}
