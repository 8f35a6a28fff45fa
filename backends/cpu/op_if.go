package cpu

import (
	"context"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func init() { register("If", buildIf) }

// ifKernel runs the branch its condition picks. Both branches are
// compiled at load; shape runs the taken one, whose outputs give the
// node's shapes, and run copies them out.
type ifKernel struct {
	n      *model.Node
	caps   []string
	branch [2]*subRun // else, then
	taken  *subRun
}

func buildIf(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.IfAttrs)
	if dt := c.inType(0); dt != payload.Bool {
		return nil, c.unsupported("condition of element type %s", dt)
	}
	k := &ifKernel{n: c.n, caps: subCaptures(c, a.Then, a.Else)}
	for i, g := range []*model.Graph{a.Else, a.Then} {
		s, err := compileSub(c, g, k.caps)
		if err != nil {
			return nil, err
		}
		for j := range c.out {
			if got, want := s.outType(j), c.out[j].DType; got != want && want != payload.Undefined {
				return nil, c.invalid("branch output %d is %s, the node's output %s", j, got, want)
			}
		}
		k.branch[i] = s
	}
	return k, nil
}

func (k *ifKernel) captures() []string { return k.caps }
func (k *ifKernel) selfShaped()        {}
func (k *ifKernel) watch(done <-chan struct{}, ctx context.Context) {
	for _, b := range k.branch {
		b.watch(done, ctx)
	}
}

// shape runs the taken branch and sets the outputs' shapes to its.
func (k *ifKernel) shape(in, out []*tensor) error {
	cond := in[0]
	if cond.numel() != 1 {
		return shapeErr(k.n, "the condition has shape %v, want one element", cond.shape)
	}
	s := k.branch[0]
	if cond.data[0] != 0 {
		s = k.branch[1]
	}
	k.taken = nil
	if err := s.bindCaptures(in); err != nil {
		return err
	}
	if err := s.x.run(); err != nil {
		return err
	}
	for j, o := range out {
		setShape(o, s.x.output(j).shape)
	}
	k.taken = s
	return nil
}

// run copies the taken branch's outputs.
func (k *ifKernel) run(in, out []*tensor) error {
	if k.taken == nil {
		return shapeErr(k.n, "no branch has run")
	}
	for j, o := range out {
		if src := k.taken.x.output(j); src.seq || src.none || o.seq {
			copyValue(o, src)
			continue
		}
		copy(o.data, k.taken.x.output(j).data)
	}
	return nil
}
