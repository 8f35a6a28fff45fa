package model

// Clone returns a deep copy of g's structure (nodes, attributes, value
// infos, maps); constant tensors and their bytes are shared, never copied,
// since they are read-only.
func (g *Graph) Clone() *Graph {
	if g == nil {
		return nil
	}
	c := *g
	c.Inputs = cloneInfos(g.Inputs)
	c.Outputs = cloneInfos(g.Outputs)
	if g.Nodes != nil {
		c.Nodes = make([]*Node, len(g.Nodes))
		for i, n := range g.Nodes {
			c.Nodes[i] = n.clone()
		}
	}
	c.Initializers = make(map[string]*Tensor, len(g.Initializers))
	for k, t := range g.Initializers {
		c.Initializers[k] = t
	}
	c.Values = make(map[string]*ValueInfo, len(g.Values))
	for k, v := range g.Values {
		if v == nil {
			c.Values[k] = nil
			continue
		}
		vc := v.clone()
		c.Values[k] = &vc
	}
	c.Opsets = make(map[string]int64, len(g.Opsets))
	for k, v := range g.Opsets {
		c.Opsets[k] = v
	}
	c.Metadata = make(map[string]string, len(g.Metadata))
	for k, v := range g.Metadata {
		c.Metadata[k] = v
	}
	return &c
}

func (v ValueInfo) clone() ValueInfo {
	v.Shape = copyDims(v.Shape)
	v.DimParams = cloneSlice(v.DimParams)
	return v
}

func cloneInfos(vs []ValueInfo) []ValueInfo {
	if vs == nil {
		return nil
	}
	out := make([]ValueInfo, len(vs))
	for i, v := range vs {
		out[i] = v.clone()
	}
	return out
}

func (n *Node) clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Inputs = cloneSlice(n.Inputs)
	c.Outputs = cloneSlice(n.Outputs)
	if n.Fused != nil {
		fu := *n.Fused
		fu.Params = cloneSlice(fu.Params)
		if fu.Prog != nil {
			p := *fu.Prog
			p.Steps = cloneSlice(p.Steps)
			for i := range p.Steps {
				p.Steps[i].K = cloneSlice(p.Steps[i].K)
			}
			fu.Prog = &p
		}
		c.Fused = &fu
	}
	if n.Attrs != nil {
		c.Attrs = make([]Attr, len(n.Attrs))
		for i, a := range n.Attrs {
			a.Floats = cloneSlice(a.Floats)
			a.Ints = cloneSlice(a.Ints)
			a.Strings = cloneSlice(a.Strings)
			a.Tensors = cloneSlice(a.Tensors)
			a.G = a.G.Clone()
			if a.TP != nil {
				tp := *a.TP
				tp.Shape = cloneSlice(tp.Shape)
				tp.DimParams = cloneSlice(tp.DimParams)
				a.TP = &tp
			}
			if a.Graphs != nil {
				gs := make([]*Graph, len(a.Graphs))
				for j, sg := range a.Graphs {
					gs[j] = sg.Clone()
				}
				a.Graphs = gs
			}
			c.Attrs[i] = a
		}
	}
	return &c
}

// cloneSlice copies s, keeping nil and empty apart.
func cloneSlice[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append(make([]E, 0, len(s)), s...)
}
