package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// ewParallelMin is the fewest elements per thread worth handing to the
// pool: below it, waking helpers costs more than the pass.
const ewParallelMin = 32 << 10

// ewKernel runs a node model.FuseElementwise wrote: its program over
// inputs of one shape, in one pass, split across the pool's threads when
// large.
type ewKernel struct {
	n    *model.Node
	prog *ewProg
	gc   *gemmCtx // the model's, for its pool; nil outside a model
	// ins, d and parts are the current call's, for runPart.
	ins   [][]float32
	d     []float32
	parts int
}

func buildElementwise(c *buildCtx) (kernel, error) {
	a, ok := c.rule.(*model.ElementwiseAttrs)
	if !ok || a.Prog == nil {
		return nil, c.invalid("no elementwise program")
	}
	for i := range c.n.Inputs {
		if dt := c.inType(i); dt != payload.Float32 && dt != payload.Undefined {
			return nil, c.unsupported("element type %s", dt)
		}
	}
	p, err := compileEw(a.Prog, false)
	if err != nil {
		return nil, c.invalid("elementwise program: %v", err)
	}
	return &ewKernel{n: c.n, prog: p, gc: c.gemm, ins: make([][]float32, p.inputs)}, nil
}

func (k *ewKernel) run(in, out []*tensor) error {
	d := out[0].f32()
	for i := range k.ins {
		x := in[i].f32()
		if len(x) < len(d) {
			return shapeErr(k.n, "elementwise input %d has %d elements, want %d", i, len(x), len(d))
		}
		k.ins[i] = x
	}
	n := len(d)
	parts := 1
	if k.gc != nil && k.gc.pool != nil {
		parts = min(k.gc.pool.size(), n/ewParallelMin)
	}
	if parts <= 1 {
		k.prog.run(d, k.ins, 0, n)
		return nil
	}
	k.d, k.parts = d, parts
	k.gc.pool.run(k, parts)
	k.d = nil
	return nil
}

// runPart runs one thread's share, a whole number of blocks.
func (k *ewKernel) runPart(part int) {
	n := len(k.d)
	blocks := (n + ewBlock - 1) / ewBlock
	lo := min(part*blocks/k.parts*ewBlock, n)
	hi := min((part+1)*blocks/k.parts*ewBlock, n)
	k.prog.run(k.d, k.ins, lo, hi)
}
