package cpu

import (
	"context"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func init() { register("Loop", buildLoop) }

// loopKernel runs a Loop node. shape runs the whole loop, keeping the
// loop-carried values and the stacked scan outputs in the kernel's
// buffers; run copies them to the outputs.
type loopKernel struct {
	n    *model.Node
	a    *model.LoopAttrs
	caps []string
	body *subRun
	// iter and cond are the body's first two inputs.
	iter, cond tensor
	// state holds the loop-carried values after an iteration, next
	// those of the iteration running; final points at the values the
	// node gives (state, or the initial inputs when no iteration ran).
	state, next []tensor
	final       []*tensor
	scans       []stacked
}

// stacked is one scan output: its per-iteration elements, one after the
// other, and their shape.
type stacked struct {
	data  []byte
	elem  []int
	count int
	// static is the body output's static shape, for a loop that never
	// runs (unknown dims give 0).
	static []int
	// limit caps the bytes held (compute.Options.MaxTensorBytes).
	limit int
}

// add appends one iteration's element t, refusing one whose shape
// differs from the first's.
func (s *stacked) add(n *model.Node, what string, t *tensor) error {
	if s.count == 0 {
		s.elem = append(s.elem[:0], t.shape...)
	} else if !sameShape(s.elem, t.shape) {
		return shapeErr(n, "%s has shape %v in one iteration and %v in another", what, s.elem, t.shape)
	}
	if len(t.data) > s.limit-len(s.data) {
		return errs.New(errs.ResourceUnavailable, "node %q (%s): %s stacked over %d steps needs more than the %d-byte limit (compute.Options.MaxTensorBytes)", n.Label(), n.OpType, what, s.count+1, s.limit)
	}
	s.data = append(s.data, t.data...)
	s.count++
	return nil
}

// tensorLimit returns the cap on one tensor's bytes that opts set.
func tensorLimit(opts compute.Options) int {
	if m := opts.MaxTensorBytes; m > 0 && m < compute.DefaultMaxTensorBytes {
		return int(m)
	}
	return compute.DefaultMaxTensorBytes
}

// reset forgets the elements, keeping the buffer.
func (s *stacked) reset() {
	s.data = s.data[:0]
	s.count = 0
}

// elemShape returns the shape of one element: the first's, or the static
// one when there is none.
func (s *stacked) elemShape() []int {
	if s.count == 0 {
		return s.static
	}
	return s.elem
}

// staticElem returns a body output's static shape with unknown dims as 0,
// the shape of the elements of a scan output that has none.
func staticElem(p *program, j int) []int {
	return zeroUnknown(p.values[p.outputs[j]].shape)
}

// zeroUnknown returns a copy of shape with its unknown dims 0.
func zeroUnknown(shape []int) []int {
	out := make([]int, len(shape))
	for i, d := range shape {
		out[i] = max(d, 0)
	}
	return out
}

func buildLoop(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.LoopAttrs)
	if c.n.Input(0) == "" && c.n.Input(1) == "" {
		return nil, c.unsupported("a loop with neither M nor cond never ends")
	}
	if dt := c.inType(0); c.n.Input(0) != "" && dt != payload.Int64 {
		return nil, c.unsupported("M of element type %s", dt)
	}
	if dt := c.inType(1); c.n.Input(1) != "" && dt != payload.Bool {
		return nil, c.unsupported("cond of element type %s", dt)
	}
	k := &loopKernel{n: c.n, a: a, caps: subCaptures(c, a.Body)}
	s, err := compileSub(c, a.Body, k.caps)
	if err != nil {
		return nil, err
	}
	k.body = s
	if s.inType(0) != payload.Int64 || s.inType(1) != payload.Bool || s.outType(0) != payload.Bool {
		return nil, c.invalid("the body's iteration number must be int64 and its conditions bool")
	}
	for i := range a.Carried {
		if got, want := s.inType(2+i), c.inType(2+i); got != want {
			return nil, c.invalid("loop-carried value %d is %s, the body takes %s", i, want, got)
		}
		if got, want := s.outType(1+i), c.inType(2+i); got != want {
			return nil, c.invalid("loop-carried value %d is %s, the body gives %s", i, want, got)
		}
	}
	for j := range c.out {
		if got, want := s.outType(1+j), c.out[j].DType; got != want {
			return nil, c.invalid("output %d is %s, the body gives %s", j, want, got)
		}
	}
	for j := range a.Scans {
		if s.p.values[s.p.outputs[1+a.Carried+j]].vk != model.KindTensor {
			return nil, c.unsupported("scan output %d is a value of kind %s", j, s.p.values[s.p.outputs[1+a.Carried+j]].vk)
		}
	}
	k.iter = tensor{dt: payload.Int64, shape: []int{}, data: alignedBytes(8)}
	k.cond = tensor{dt: payload.Bool, shape: []int{}, data: alignedBytes(1)}
	k.state = make([]tensor, a.Carried)
	k.next = make([]tensor, a.Carried)
	k.final = make([]*tensor, a.Carried)
	k.scans = make([]stacked, a.Scans)
	for j := range k.scans {
		k.scans[j].static = staticElem(s.p, 1+a.Carried+j)
		k.scans[j].limit = tensorLimit(c.opts)
		if o := c.out[a.Carried+j]; o.RankKnown && len(o.Shape) > 0 {
			k.scans[j].static = zeroUnknown(o.Shape[1:])
		}
	}
	return k, nil
}

func (k *loopKernel) captures() []string                              { return k.caps }
func (k *loopKernel) selfShaped()                                     {}
func (k *loopKernel) watch(done <-chan struct{}, ctx context.Context) { k.body.watch(done, ctx) }

// shape runs the loop and sets the outputs' shapes.
func (k *loopKernel) shape(in, out []*tensor) error {
	trips, cond := int64(-1), true
	if m := optIn(in, 0); m != nil {
		if m.numel() != 1 {
			return shapeErr(k.n, "M has shape %v, want one element", m.shape)
		}
		trips = max(m.i64()[0], 0)
	}
	hasCond := optIn(in, 1) != nil
	if hasCond {
		c := in[1]
		if c.numel() != 1 {
			return shapeErr(k.n, "cond has shape %v, want one element", c.shape)
		}
		cond = c.data[0] != 0
	}
	nc := k.a.Carried
	for i := range nc {
		k.final[i] = in[2+i]
	}
	for j := range k.scans {
		k.scans[j].reset()
	}
	b := k.body
	for it := int64(0); (trips < 0 || it < trips) && cond; it++ {
		// Each run of the body unbinds its inputs: bind them all again.
		if err := b.bindCaptures(in); err != nil {
			return err
		}
		k.iter.i64()[0] = it
		k.cond.data[0] = 1
		if !cond {
			k.cond.data[0] = 0
		}
		if err := b.bind(0, &k.iter); err != nil {
			return err
		}
		if err := b.bind(1, &k.cond); err != nil {
			return err
		}
		for i := range nc {
			if err := b.bind(2+i, k.final[i]); err != nil {
				return err
			}
		}
		if err := b.x.run(); err != nil {
			return err
		}
		if hasCond {
			c := b.x.output(0)
			if c.numel() != 1 {
				return shapeErr(k.n, "the body's condition has shape %v, want one element", c.shape)
			}
			cond = c.data[0] != 0
		}
		// The body's outputs may view its inputs, which may be the
		// state: copy them all to next before swapping.
		for i := range nc {
			holdCopy(&k.next[i], b.x.output(1+i))
		}
		k.state, k.next = k.next, k.state
		for i := range nc {
			k.final[i] = &k.state[i]
		}
		for j := range k.scans {
			if err := k.scans[j].add(k.n, "a scan output", b.x.output(1+nc+j)); err != nil {
				return err
			}
		}
	}
	for i := range nc {
		setShape(out[i], k.final[i].shape)
	}
	for j := range k.scans {
		s := &k.scans[j]
		e := s.elemShape()
		d := out[nc+j].resize(len(e) + 1)
		d[0] = s.count
		copy(d[1:], e)
	}
	return nil
}

// run copies the final loop-carried values and the scan outputs.
func (k *loopKernel) run(in, out []*tensor) error {
	nc := k.a.Carried
	for i := range nc {
		if f := k.final[i]; f.seq || f.none || out[i].seq {
			copyValue(out[i], f)
			continue
		}
		copy(out[i].data, k.final[i].data)
	}
	for j := range k.scans {
		copy(out[nc+j].data, k.scans[j].data)
	}
	return nil
}
