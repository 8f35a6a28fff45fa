package cpu

import (
	"github.com/lintel-ml/lintel/payload"
)

// reshapeKernel is Reshape: a view of input 0 with the shape the
// descriptor's rule (model.ReshapeAttrs) computes.
type reshapeKernel struct{}

func (k *reshapeKernel) aliasInput() int { return 0 }

func (k *reshapeKernel) run(in, out []*tensor) error { return nil }

// maxDim bounds any dimension or element count a kernel computes.
const maxDim = int(^uint(0) >> 2)

// viewKernel is Flatten, Squeeze and Unsqueeze: a view of input 0 with
// the shape the descriptor's rule (model.FlattenAttrs,
// model.SqueezeAttrs) computes.
type viewKernel struct{}

func (k *viewKernel) aliasInput() int { return 0 }

func (k *viewKernel) run(in, out []*tensor) error { return nil }

func init() {
	register("Reshape", func(c *buildCtx) (kernel, error) {
		if c.n.NumInputs() >= 2 && c.inType(1) != payload.Int64 {
			return nil, c.unsupported("shape input of type %s", c.inType(1))
		}
		return &reshapeKernel{}, nil
	})
	register("Flatten", func(c *buildCtx) (kernel, error) { return &viewKernel{}, nil })
	sq := func(c *buildCtx) (kernel, error) {
		if c.opset >= 13 && !c.intInputOK(1, false) {
			return nil, c.unsupported("axes input of type %s", c.inType(1))
		}
		return &viewKernel{}, nil
	}
	register("Squeeze", sq)
	register("Unsqueeze", sq)
}
