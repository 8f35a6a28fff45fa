package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
)

// EliminateIdentity removes Identity nodes and inference Dropout nodes
// (single output, or mask output unused) by rewiring their consumers,
// except where that would rename a graph output (then it keeps the node).
// Nodes whose output a subgraph uses are kept too.
func EliminateIdentity(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	graphOut := map[string]bool{}
	for _, o := range g.Outputs {
		graphOut[o.Name] = true
	}
	used := map[string]bool{}     // consumed by a node or a graph output
	implicit := map[string]bool{} // used by a subgraph
	for _, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		for _, in := range n.Inputs {
			used[in] = true
		}
		for _, in := range implicitInputs(n) {
			used[in] = true
			implicit[in] = true
		}
	}
	for name := range graphOut {
		used[name] = true
	}
	rename := map[string]string{}
	resolve := func(name string) string {
		for i := 0; i < len(g.Nodes)+1; i++ {
			r, ok := rename[name]
			if !ok {
				break
			}
			name = r
		}
		return name
	}
	kept := make([]*Node, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		if !passThrough(g, n, used) {
			kept = append(kept, n)
			continue
		}
		x, y := n.Inputs[0], n.Outputs[0]
		if graphOut[y] || implicit[y] || x == "" || y == "" || resolve(x) == y {
			kept = append(kept, n)
			continue
		}
		rename[y] = x
		delete(g.Values, y)
	}
	if len(kept) == len(g.Nodes) {
		return nil
	}
	for _, n := range kept {
		for i, in := range n.Inputs {
			n.Inputs[i] = resolve(in)
		}
	}
	g.Nodes = kept
	return nil
}

// passThrough reports whether n is an Identity, or a Dropout in inference
// whose mask nothing uses.
func passThrough(g *Graph, n *Node, used map[string]bool) bool {
	if !isDefaultDomain(n.Domain) || len(n.Inputs) == 0 || len(n.Outputs) == 0 {
		return false
	}
	switch n.OpType {
	case "Identity":
		return len(n.Outputs) == 1
	case "Dropout":
		if len(n.Outputs) > 2 || (len(n.Outputs) == 2 && n.Outputs[1] != "" && used[n.Outputs[1]]) {
			return false
		}
		if g.Opset >= 12 || g.Opset <= 0 {
			if tm := n.Input(2); tm != "" {
				t := g.Const(tm)
				if t == nil {
					return false
				}
				v, err := t.Int64s()
				if err != nil || len(v) != 1 || v[0] != 0 {
					return false
				}
			}
		}
		if g.Opset > 0 && g.Opset < 7 {
			if t, err := n.Int("is_test", 0); err != nil || t == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// Optimize runs EliminateIdentity, Fold, FoldBatchNorm, FoldConvAffine,
// Fold again, InferTypes, dead-node removal. Backends call it on a Clone. It sorts g
// first.
func Optimize(g *Graph, eval Evaluator) error {
	if err := Sort(g); err != nil {
		return err
	}
	if err := EliminateIdentity(g); err != nil {
		return err
	}
	if err := Fold(g, eval); err != nil {
		return err
	}
	if err := FoldBatchNorm(g); err != nil {
		return err
	}
	if err := FoldConvAffine(g); err != nil {
		return err
	}
	if err := Fold(g, eval); err != nil {
		return err
	}
	if err := InferTypes(g); err != nil {
		return err
	}
	removeDead(g)
	return nil
}
