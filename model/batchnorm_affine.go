package model

import (
	"math"

	"github.com/lintel-ml/lintel/payload"
)

// SplitBatchNorm rewrites each inference BatchNormalization that
// FoldBatchNorm left (one that follows no Conv: after a ConvTranspose,
// an Add, a pooling) as Mul by a per-channel constant a then Add of a
// per-channel constant b, a = scale/√(var+ε) and b = B − mean·a computed
// in float64 and rounded to float32, the multiply and the add each
// rounded: exactly what the float32 BatchNormalization kernel computes,
// so the bits stay, and the two steps join the elementwise programs of
// the nodes around them (FuseElementwise) instead of a pass of their
// own. It takes float32 input of known rank with constant float32
// parameters of one value per channel, and no used training outputs.
// g must be sorted and typed by InferTypes.
func SplitBatchNorm(g *Graph) error {
	sc, err := scanForFold(g)
	if err != nil {
		return err
	}
	var nodes []*Node
	for _, bn := range g.Nodes {
		mul, add, ok := splitBN(g, sc, bn)
		if !ok {
			nodes = append(nodes, bn)
			continue
		}
		nodes = append(nodes, mul, add)
	}
	g.Nodes = nodes
	return nil
}

// splitBN returns bn's Mul and Add, new constants and the value between
// them added to g, or false when bn does not qualify.
func splitBN(g *Graph, sc *foldScan, bn *Node) (mul, add *Node, ok bool) {
	if !isDefaultDomain(bn.Domain) || bn.OpType != "BatchNormalization" || len(bn.Inputs) != 5 || len(bn.Outputs) == 0 || bn.Outputs[0] == "" {
		return nil, nil, false
	}
	if nodeOpset(g) < 7 {
		return nil, nil, false // Mul and Add broadcast by attribute
	}
	for _, o := range bn.Outputs[1:] {
		if o != "" && sc.uses[o] > 0 {
			return nil, nil, false
		}
	}
	x := g.Values[bn.Inputs[0]]
	if x == nil || x.DType != payload.Float32 || !x.RankKnown || len(x.Shape) < 2 {
		return nil, nil, false
	}
	_, rule, err := BindNode(bn, nodeOpset(g))
	if err != nil {
		return nil, nil, false
	}
	if a := rule.(*BatchNormAttrs); a.Training || !a.Spatial {
		return nil, nil, false
	}
	eps := float64(rule.(*BatchNormAttrs).Epsilon)
	var p [4][]float32
	for i := range p {
		t := g.Const(bn.Inputs[i+1])
		if t == nil || t.DType != payload.Float32 || len(t.Shape) != 1 || t.Check() != nil {
			return nil, nil, false
		}
		v, err := View[float32](t)
		if err != nil || (i > 0 && len(v) != len(p[0])) {
			return nil, nil, false
		}
		p[i] = v
	}
	c := len(p[0])
	if d := x.Shape[1]; c == 0 || (d >= 0 && d != c) {
		return nil, nil, false
	}
	scale, beta, mean, variance := p[0], p[1], p[2], p[3]
	av, bv := make([]float32, c), make([]float32, c)
	for i := range c {
		a := float64(scale[i]) / math.Sqrt(float64(variance[i])+eps)
		av[i] = float32(a)
		bv[i] = float32(float64(beta[i]) - float64(mean[i])*a)
	}
	// [C, 1, …]: the channel axis of x, aligned from the right.
	shape := make([]int, len(x.Shape)-1)
	for i := range shape {
		shape[i] = 1
	}
	shape[0] = c
	an, bn2 := sc.fresh(bn.Inputs[1], "_bn_mul"), sc.fresh(bn.Inputs[2], "_bn_add")
	g.Initializers[an] = NewTensor(an, shape, av)
	g.Initializers[bn2] = NewTensor(bn2, shape, bv)
	mid := sc.fresh(bn.Outputs[0], "_bn_scaled")
	g.Values[mid] = &ValueInfo{Name: mid, DType: payload.Float32, Shape: append([]int(nil), x.Shape...), RankKnown: true}
	for _, o := range bn.Outputs[1:] {
		if o != "" {
			delete(g.Values, o)
		}
	}
	mul = &Node{Name: bn.Name + "_mul", OpType: "Mul", Inputs: []string{bn.Inputs[0], an}, Outputs: []string{mid}}
	add = &Node{Name: bn.Name, OpType: "Add", Inputs: []string{mid, bn2}, Outputs: []string{bn.Outputs[0]}}
	return mul, add, true
}
