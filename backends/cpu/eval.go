package cpu

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// maxFoldElems caps the size of a folded constant.
const maxFoldElems = 1 << 22

// evalNode computes a node on constant inputs with the CPU kernels; it is
// the model.Evaluator the CPU backend folds constants with.
func evalNode(n *model.Node, opset int64, inputs []*model.Tensor, outTypes []payload.DType) ([]*model.Tensor, error) {
	g := model.NewGraph()
	g.Opset = opset
	c := &buildCtx{g: g, n: n, opset: opset}
	ins := make([]*tensor, len(n.Inputs))
	for i := range n.Inputs {
		var t *model.Tensor
		if i < len(inputs) {
			t = inputs[i]
		}
		if t == nil || n.Inputs[i] == "" {
			c.in = append(c.in, model.ValueInfo{})
			continue
		}
		if err := t.Check(); err != nil {
			return nil, err
		}
		raw := t.Raw
		if !payload.IsAligned(raw, t.DType.Size()) {
			raw = model.AlignedBytes(raw)
		}
		g.Initializers[n.Inputs[i]] = t
		c.in = append(c.in, model.ValueInfo{Name: n.Inputs[i], DType: t.DType, Shape: t.Shape, RankKnown: true})
		ins[i] = &tensor{dt: t.DType, shape: append([]int{}, t.Shape...), data: raw}
	}
	outs := make([]*tensor, len(n.Outputs))
	for i, name := range n.Outputs {
		dt := payload.Undefined
		if i < len(outTypes) {
			dt = outTypes[i]
		}
		c.out = append(c.out, model.ValueInfo{Name: name, DType: dt})
		outs[i] = &tensor{dt: dt}
	}
	k, err := buildKernel(c)
	if err != nil {
		return nil, err
	}
	if err := newOutShaper(c, k).shapes(ins, outs); err != nil {
		return nil, err
	}
	for _, o := range outs {
		n := payload.NumElems(o.shape)
		if n < 0 || n > maxFoldElems {
			return nil, errs.New(errs.Unsupported, "node %q: result of shape %v is too large to fold", c.n.Label(), o.shape)
		}
		if o.dt == payload.String {
			continue // the kernel builds the encoding (strOut)
		}
		if !o.dt.Valid() {
			return nil, errs.New(errs.Unsupported, "node %q: output element type %s", c.n.Label(), o.dt)
		}
		o.data = alignedBytes(n * o.dt.Size())
	}
	a, alias := k.(aliaser)
	if alias {
		if outs[0].dt == payload.String {
			outs[0].data = append([]byte(nil), ins[a.aliasInput()].data...)
		} else {
			copy(outs[0].data, ins[a.aliasInput()].data)
		}
	}
	if !alias || len(outs) > 1 {
		if err := k.run(ins, outs); err != nil {
			return nil, err
		}
	}
	res := make([]*model.Tensor, len(outs))
	for i, o := range outs {
		res[i] = &model.Tensor{Name: n.Outputs[i], DType: o.dt, Shape: append([]int{}, o.shape...), Raw: o.data}
	}
	return res, nil
}
