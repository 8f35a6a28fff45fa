package cpu

import (
	"context"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func init() { register("SequenceMap", buildSequenceMap) }

// seqMapKernel runs a SequenceMap node: its body once per element of the
// first input, taking that element, the element at the same position of
// each further sequence input and each further tensor input whole. The
// body's outputs are copied into the output sequences' items, whose
// tensors and buffers the kernel keeps across calls (ADR 26): once the
// sequences have been as long, and their elements as large, as on an
// earlier call, nothing is allocated.
type seqMapKernel struct {
	n    *model.Node
	caps []string
	body *subRun
	// nIn is the number of the node's own inputs (the captures follow).
	nIn int
}

func buildSequenceMap(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.SequenceMapAttrs)
	if len(c.in) == 0 || c.in[0].Kind != model.KindSequence {
		return nil, c.unsupported("input 0 is not known to be a sequence")
	}
	for i, v := range c.in {
		if v.Kind != model.KindSequence && v.Kind != model.KindTensor {
			return nil, c.unsupported("input %d is a value of kind %s", i, v.Kind)
		}
		if v.DType == payload.String {
			return nil, c.unsupported("sequences of strings are not supported")
		}
	}
	for j, v := range c.out {
		if v.Kind != model.KindSequence {
			return nil, c.unsupported("output %d is not known to be a sequence", j)
		}
	}
	k := &seqMapKernel{n: c.n, caps: subCaptures(c, a.Body), nIn: len(c.n.Inputs)}
	s, err := compileSub(c, a.Body, k.caps)
	if err != nil {
		return nil, err
	}
	k.body = s
	for i := range k.nIn {
		if got, want := s.inType(i), c.inType(i); got != want {
			return nil, c.invalid("input %d holds %s, the body takes %s", i, want, got)
		}
	}
	for j := range c.out {
		if got, want := s.outType(j), c.out[j].DType; got != want && want != payload.Undefined {
			return nil, c.invalid("output %d holds %s, the body gives %s", j, want, got)
		}
	}
	return k, nil
}

func (k *seqMapKernel) captures() []string                              { return k.caps }
func (k *seqMapKernel) selfShaped()                                     {}
func (k *seqMapKernel) watch(done <-chan struct{}, ctx context.Context) { k.body.watch(done, ctx) }

// shape checks that the sequence inputs have the same length; every
// output is a sequence, whose placeholder shape is [].
func (k *seqMapKernel) shape(in, out []*tensor) error {
	n := len(in[0].items)
	for i := 1; i < k.nIn; i++ {
		if in[i].seq && len(in[i].items) != n {
			return shapeErr(k.n, "input %d is a sequence of %d tensors, input 0 of %d", i, len(in[i].items), n)
		}
		if in[i].none {
			return shapeErr(k.n, "input %d has no value", i)
		}
	}
	for _, o := range out {
		o.resize(0)
	}
	return nil
}

// run runs the body once per element and copies its outputs into the
// output sequences.
func (k *seqMapKernel) run(in, out []*tensor) error {
	n := len(in[0].items)
	for _, o := range out {
		o.none = false
		o.setLen(n)
	}
	b := k.body
	for e := range n {
		// Each run of the body unbinds its inputs: bind them all again.
		if err := b.bindCaptures(in); err != nil {
			return err
		}
		for i, t := range in[:k.nIn] {
			if t.seq {
				t = t.items[e]
			}
			if err := b.bind(i, t); err != nil {
				return err
			}
		}
		if err := b.x.run(); err != nil {
			return err
		}
		for j, o := range out {
			o.items[e].copyFrom(b.x.output(j))
		}
	}
	return nil
}
