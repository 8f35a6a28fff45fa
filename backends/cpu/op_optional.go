package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

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

// optionalNoneKernel is Optional with no input: an empty optional of a
// tensor, or of a sequence when seq is set.
type optionalNoneKernel struct{ seq bool }

func (optionalNoneKernel) selfShaped() {}

func (k optionalNoneKernel) shape(in, out []*tensor) error {
	out[0].resize(0)
	return nil
}

func (k optionalNoneKernel) run(in, out []*tensor) error {
	o := out[0]
	o.none = true
	if k.seq {
		o.setLen(0)
	}
	return nil
}

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
		a := c.rule.(*model.OptionalAttrs)
		if c.n.Input(0) == "" {
			if a.Type == nil {
				return nil, c.invalid("an empty optional (no input) needs the type attribute")
			}
			if a.Type.DType == payload.String {
				return nil, c.unsupported("sequences and optionals of strings are not supported")
			}
			return optionalNoneKernel{seq: a.Type.Kind == model.KindSequence}, nil
		}
		if c.in[0].Kind.IsOptional() {
			return nil, c.invalid("the input is already an optional")
		}
		return newSeqKernel(c, "copy", false)
	})
}
