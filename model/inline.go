package model

import (
	"strconv"

	"github.com/lintel-ml/lintel/payload"
)

// inlineIf returns the nodes that replace n, an If node of g whose
// condition is a constant: the taken branch's nodes, its values renamed
// apart from every other name of the model, then an Identity per output.
// Its initializers become g's. ok is false when n is no such If, or when
// the branch holds subgraphs of its own (whose uses of the branch's
// values would need renaming too).
func inlineIf(g *Graph, n *Node, names map[string]bool) (nodes []*Node, ok bool) {
	if n.OpType != "If" || !isDefaultDomain(n.Domain) {
		return nil, false
	}
	t := g.Const(n.Input(0))
	if t == nil || t.DType != payload.Bool || len(t.Raw) != 1 {
		return nil, false
	}
	attr := "else_branch"
	if t.Raw[0] != 0 {
		attr = "then_branch"
	}
	a := n.Attr(attr)
	if a == nil || a.G == nil || len(a.G.Inputs) > 0 || len(a.G.Outputs) != len(n.Outputs) {
		return nil, false
	}
	b := a.G
	for _, bn := range b.Nodes {
		if bn == nil || len(NodeSubgraphs(bn)) > 0 {
			return nil, false
		}
	}
	rename := map[string]string{}
	fresh := func(name string) string {
		s := name
		for i := 1; names[s]; i++ {
			s = name + "_inl" + strconv.Itoa(i)
		}
		names[s] = true
		rename[name] = s
		return s
	}
	for name, c := range b.Initializers {
		nn := fresh(name)
		ct := *c
		ct.Name = nn
		g.Initializers[nn] = &ct
	}
	for _, bn := range b.Nodes {
		for _, o := range bn.Outputs {
			if o != "" {
				fresh(o)
			}
		}
	}
	sub := func(name string) string {
		if r, ok := rename[name]; ok {
			return r
		}
		return name
	}
	for _, bn := range b.Nodes {
		c := bn.clone()
		for i, in := range c.Inputs {
			c.Inputs[i] = sub(in)
		}
		for i, o := range c.Outputs {
			c.Outputs[i] = sub(o)
		}
		if c.Name != "" {
			c.Name = n.Label() + "/" + c.Name
		}
		nodes = append(nodes, c)
	}
	for j, o := range n.Outputs {
		if o == "" {
			continue
		}
		nodes = append(nodes, &Node{OpType: "Identity", Inputs: []string{sub(b.Outputs[j].Name)}, Outputs: []string{o}})
	}
	return nodes, true
}

// allNames returns every value name g and its subgraphs define or use.
func allNames(g *Graph, into map[string]bool, depth int) {
	if g == nil || depth > maxNesting {
		return
	}
	for _, in := range g.Inputs {
		into[in.Name] = true
	}
	for _, o := range g.Outputs {
		into[o.Name] = true
	}
	for name := range g.Initializers {
		into[name] = true
	}
	for name := range g.Values {
		into[name] = true
	}
	for _, n := range g.Nodes {
		if n == nil {
			continue
		}
		for _, in := range n.Inputs {
			into[in] = true
		}
		for _, o := range n.Outputs {
			into[o] = true
		}
		for _, sg := range NodeSubgraphs(n) {
			allNames(sg, into, depth+1)
		}
	}
}
