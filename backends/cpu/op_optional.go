package cpu

import "github.com/lintel-ml/lintel/model"

// optionalHasKernel is OptionalHasElement: true unless the input is
// absent or an optional with no element.
type optionalHasKernel struct{}

func (optionalHasKernel) run(in, out []*tensor) error {
	var v byte
	if t := optIn(in, 0); t != nil && !t.none {
		v = 1
	}
	out[0].data[0] = v
	return nil
}

// optionalViewKernel is OptionalGetElement on a tensor: the output is a
// view of the input. On an optional or a sequence, and for Optional, the
// value is copied (seqKernel).
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
		if c.in[0].Kind == model.KindTensor {
			return optionalViewKernel{}, nil
		}
		return newSeqKernel(c, "get", false)
	})
	register("Optional", func(c *buildCtx) (kernel, error) {
		_ = c.rule.(*model.OptionalAttrs)
		if c.n.Input(0) == "" {
			return nil, c.unsupported("an empty optional (no input) is not supported")
		}
		if c.in[0].Kind.IsOptional() {
			return nil, c.invalid("the input is already an optional")
		}
		return newSeqKernel(c, "copy", false)
	})
}
