package model

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
)

// FoldBatchNorm folds an inference BatchNormalization that directly follows
// a Conv (the Conv's output used only by it; Conv weights, optional Conv
// bias and all BN parameters constant, float32) into the Conv's weights and
// bias, removing the BN node.
//
// The folded weights and bias are new initializers; the old ones stay until
// dead-node removal drops them when unused.
func FoldBatchNorm(g *Graph) error {
	sc, err := scanForFold(g)
	if err != nil {
		return err
	}
	uses, producer := sc.uses, sc.producer
	removed := map[*Node]bool{}
	for _, bn := range g.Nodes {
		if removed[bn] || !isDefaultDomain(bn.Domain) || bn.OpType != "BatchNormalization" || len(bn.Inputs) != 5 || len(bn.Outputs) == 0 || bn.Outputs[0] == "" {
			continue
		}
		conv := producer[bn.Inputs[0]]
		if conv == nil || removed[conv] || !isDefaultDomain(conv.Domain) || conv.OpType != "Conv" || len(conv.Outputs) != 1 || uses[conv.Outputs[0]] != 1 {
			continue
		}
		w, b, ok, err := bnFolded(g, conv, bn, uses)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		w.Name = sc.fresh(conv.Inputs[1], "_bnfold")
		g.Initializers[w.Name] = w
		bname := conv.Input(2)
		if bname == "" {
			bname = conv.Inputs[1] + "_bias"
		}
		b.Name = sc.fresh(bname, "_bnfold")
		g.Initializers[b.Name] = b
		old := conv.Outputs[0]
		conv.Inputs = []string{conv.Inputs[0], w.Name, b.Name}
		conv.Outputs = []string{bn.Outputs[0]}
		delete(g.Values, old)
		for _, o := range bn.Outputs[1:] {
			if o != "" {
				delete(g.Values, o)
			}
		}
		removed[bn] = true
	}
	dropNodes(g, removed)
	return nil
}

// bnFolded returns conv's weights and bias with bn folded in, or ok false
// when the pair does not qualify.
func bnFolded(g *Graph, conv, bn *Node, uses map[string]int) (w, b *Tensor, ok bool, err error) {
	for _, o := range bn.Outputs[1:] {
		if o != "" && uses[o] > 0 {
			return nil, nil, false, nil
		}
	}
	_, rule, err := BindNode(bn, nodeOpset(g))
	if err != nil {
		return nil, nil, false, err
	}
	a := rule.(*BatchNormAttrs)
	if a.Training || !a.Spatial {
		return nil, nil, false, nil
	}
	eps := a.Epsilon
	if conv.NumInputs() < 2 || len(conv.Inputs) > 3 {
		return nil, nil, false, nil
	}
	wt := g.Const(conv.Inputs[1])
	if wt == nil || wt.DType != payload.Float32 || len(wt.Shape) < 3 || wt.Check() != nil {
		return nil, nil, false, nil
	}
	m := wt.Shape[0]
	if m <= 0 {
		return nil, nil, false, nil
	}
	vec := func(name string) []float32 {
		t := g.Const(name)
		if t == nil || t.DType != payload.Float32 || len(t.Shape) != 1 || t.Shape[0] != m || t.Check() != nil {
			return nil
		}
		v, err := View[float32](t)
		if err != nil {
			return nil
		}
		return v
	}
	var bias []float32
	if conv.Input(2) != "" {
		if bias = vec(conv.Input(2)); bias == nil {
			return nil, nil, false, nil
		}
	}
	scale, beta, mean, variance := vec(bn.Inputs[1]), vec(bn.Inputs[2]), vec(bn.Inputs[3]), vec(bn.Inputs[4])
	if scale == nil || beta == nil || mean == nil || variance == nil {
		return nil, nil, false, nil
	}
	wv, err := View[float32](wt)
	if err != nil {
		return nil, nil, false, nil
	}
	per := len(wv) / m
	nw := make([]float32, len(wv))
	nb := make([]float32, m)
	for c := 0; c < m; c++ {
		s := float64(scale[c]) / math.Sqrt(float64(variance[c])+float64(eps))
		for j := c * per; j < (c+1)*per; j++ {
			nw[j] = float32(float64(wv[j]) * s)
		}
		b0 := 0.0
		if bias != nil {
			b0 = float64(bias[c])
		}
		nb[c] = float32((b0-float64(mean[c]))*s + float64(beta[c]))
	}
	return NewTensor("", wt.Shape, nw), NewTensor("", []int{m}, nb), true, nil
}
