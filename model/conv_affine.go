package model

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
)

// FoldConvAffine folds a Mul or an Add by a constant that directly
// follows a Conv into the Conv's weights and bias, as ONNX Runtime's
// Conv-Mul and Conv-Add fusions do: Conv(x)·a is the Conv with weights
// W·a and bias B·a, Conv(x) + c the Conv with bias B + c. It takes a
// constant that is one float32 value (any shape of ones no longer than
// the Conv output's rank) or one value per output channel (a shape of
// ones but for the channel axis of the output, which is M), finite, and
// a Conv whose output only that node uses, with constant float32
// weights and bias, at opset 7 or later (Add and Mul broadcast without
// attributes). Chains fold in turn: exporters of re-parameterised blocks
// emit Conv → Mul(scale) → Add(shift). The sums may differ from the
// unfolded graph's in the last bits.
//
// The folded weights and bias are new initializers; the old ones stay
// until dead-node removal drops them when unused.
func FoldConvAffine(g *Graph) error {
	sc, err := scanForFold(g)
	if err != nil {
		return err
	}
	if nodeOpset(g) < 7 {
		return nil
	}
	uses, producer := sc.uses, sc.producer
	removed := map[*Node]bool{}
	for _, n := range g.Nodes {
		if removed[n] || !isDefaultDomain(n.Domain) || (n.OpType != "Mul" && n.OpType != "Add") || len(n.Inputs) != 2 || len(n.Outputs) != 1 || n.Outputs[0] == "" {
			continue
		}
		side := -1
		for i, in := range n.Inputs {
			if p := producer[in]; p != nil && !removed[p] && isDefaultDomain(p.Domain) && p.OpType == "Conv" && g.Const(n.Inputs[1-i]) != nil {
				side = i
				break
			}
		}
		if side < 0 {
			continue
		}
		conv := producer[n.Inputs[side]]
		if len(conv.Outputs) != 1 || uses[conv.Outputs[0]] != 1 {
			continue
		}
		w, b, ok := affineFolded(g, conv, g.Const(n.Inputs[1-side]), n.OpType == "Mul")
		if !ok {
			continue
		}
		if w != nil {
			w.Name = sc.fresh(conv.Inputs[1], "_affine")
			g.Initializers[w.Name] = w
		} else {
			w = g.Const(conv.Inputs[1])
		}
		bname := conv.Input(2)
		if bname == "" {
			bname = conv.Inputs[1] + "_bias"
		}
		b.Name = sc.fresh(bname, "_affine")
		g.Initializers[b.Name] = b
		delete(g.Values, conv.Outputs[0])
		conv.Inputs = []string{conv.Inputs[0], w.Name, b.Name}
		conv.Outputs = []string{n.Outputs[0]}
		producer[n.Outputs[0]] = conv
		removed[n] = true
	}
	dropNodes(g, removed)
	return nil
}

// affineFolded returns conv's weights (nil: unchanged, for an Add) and
// bias with the constant c multiplied in (mul) or added, or ok false when
// the pair does not qualify.
func affineFolded(g *Graph, conv *Node, c *Tensor, mul bool) (w, b *Tensor, ok bool) {
	if conv.NumInputs() < 2 || len(conv.Inputs) > 3 {
		return nil, nil, false
	}
	wt := g.Const(conv.Inputs[1])
	if wt == nil || wt.DType != payload.Float32 || len(wt.Shape) < 3 || wt.Check() != nil {
		return nil, nil, false
	}
	m := wt.Shape[0]
	if m <= 0 || c.DType != payload.Float32 || c.Check() != nil || !perChannel(c.Shape, m, len(wt.Shape)) {
		return nil, nil, false
	}
	cv, err := View[float32](c)
	if err != nil {
		return nil, nil, false
	}
	for _, v := range cv {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, nil, false
		}
	}
	at := func(o int) float32 {
		if len(cv) == 1 {
			return cv[0]
		}
		return cv[o]
	}
	var bias []float32
	if conv.Input(2) != "" {
		bt := g.Const(conv.Input(2))
		if bt == nil || bt.DType != payload.Float32 || len(bt.Shape) != 1 || bt.Shape[0] != m || bt.Check() != nil {
			return nil, nil, false
		}
		if bias, err = View[float32](bt); err != nil {
			return nil, nil, false
		}
	}
	wv, err := View[float32](wt)
	if err != nil {
		return nil, nil, false
	}
	nb := make([]float32, m)
	if bias != nil {
		copy(nb, bias)
	}
	if !mul {
		for o := range nb {
			nb[o] += at(o)
		}
		return nil, NewTensor("", []int{m}, nb), true
	}
	per := len(wv) / m
	nw := make([]float32, len(wv))
	for o := range m {
		a := at(o)
		for j := o * per; j < (o+1)*per; j++ {
			nw[j] = wv[j] * a
		}
		nb[o] *= a
	}
	return NewTensor("", wt.Shape, nw), NewTensor("", []int{m}, nb), true
}

// perChannel reports whether a constant of shape s broadcasts over a Conv
// output of rank r (the weights' rank) as one value, or as one value per
// output channel of m: its rank at most r, every dim 1 but, for the
// per-channel form, the one aligned with the output's axis 1.
func perChannel(s []int, m, r int) bool {
	if len(s) > r {
		return false
	}
	ch := len(s) - (r - 1) // s's index aligned with the output's axis 1
	n := 1
	for i, d := range s {
		n *= d
		if d != 1 && (i != ch || d != m) {
			return false
		}
	}
	return n == 1 || n == m
}
