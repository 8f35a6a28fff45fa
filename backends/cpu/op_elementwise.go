package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// ewParallelMin is the fewest elements per thread worth handing to the
// pool: below it, waking helpers costs more than the pass.
const ewParallelMin = 32 << 10

// ewKernel runs a node model.FuseElementwise wrote: its program over
// inputs of the output's shape or broadcast to it along one run of axes
// (a per-channel scale), in one pass, split across the pool's threads
// when large.
type ewKernel struct {
	n    *model.Node
	prog *ewProg
	gc   *gemmCtx // the model's, for its pool; nil outside a model
	// in, d and parts are the current call's, for runPart.
	in    ewInputs
	d     []float32
	parts int
	// bc backs in.bc; buf holds each thread's scratch (ewProg.runNode);
	// strides backs the general broadcasts' strides.
	bc      []ewBcast
	buf     []float32
	strides []int
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
	k := &ewKernel{n: c.n, prog: p, gc: c.gemm, bc: make([]ewBcast, p.inputs)}
	k.in.x = make([][]float32, p.inputs)
	threads := 1
	if c.gemm != nil {
		threads = c.gemm.pool.size()
	}
	k.buf = make([]float32, threads*p.scratchSize(ewNodeBlock))
	return k, nil
}

func (k *ewKernel) run(in, out []*tensor) error {
	d := out[0].f32()
	os := out[0].shape
	k.in.bc = nil
	r := len(os)
	k.strides = growInts(&k.strides, r*len(k.in.x))
	for i := range k.in.x {
		x := in[i].f32()
		k.bc[i] = ewBcast{}
		// An input that broadcasts to the output with as many elements
		// has its layout (at most leading dims of 1 apart).
		if len(x) != len(d) {
			k.in.bc = k.bc
			if inner, span, ok := model.EwSpan(in[i].shape, os); ok && span == len(x) {
				k.bc[i] = ewBcast{inner: inner, span: span}
			} else if st, ok := ewStrides(k.strides[i*r:(i+1)*r], in[i].shape, os); ok {
				k.bc[i] = ewBcast{dims: os, strides: st}
			} else {
				return shapeErr(k.n, "elementwise input %d of shape %v does not broadcast to %v", i, in[i].shape, os)
			}
		}
		k.in.x[i] = x
	}
	n := len(d)
	parts := 1
	if k.gc != nil && k.gc.pool != nil {
		parts = min(k.gc.pool.size(), n/ewParallelMin)
	}
	if parts <= 1 {
		k.prog.runNode(d, &k.in, k.buf, 0, n)
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
	blocks := (n + ewNodeBlock - 1) / ewNodeBlock
	lo := min(part*blocks/k.parts*ewNodeBlock, n)
	hi := min((part+1)*blocks/k.parts*ewNodeBlock, n)
	per := k.prog.scratchSize(ewNodeBlock)
	k.prog.runNode(k.d, &k.in, k.buf[part*per:(part+1)*per], lo, hi)
}

// ewStrides sets st to the element strides of an input of shape in
// broadcast to out (0 along its dims of 1 and those it lacks), reporting
// false when in does not broadcast to out.
func ewStrides(st, in, out []int) ([]int, bool) {
	off := len(out) - len(in)
	if off < 0 {
		return nil, false
	}
	step := 1
	for a := len(out) - 1; a >= 0; a-- {
		st[a] = 0
		if a < off {
			continue
		}
		switch d := in[a-off]; d {
		case out[a]:
			if d != 1 {
				st[a] = step
			}
			step *= d
		case 1:
		default:
			return nil, false
		}
	}
	return st, true
}
