package model

import "github.com/lintel-ml/lintel/payload"

// dimRef is one element of a shape vector that a graph builds at run time
// from its values' shapes, as exporters write the Expand and Reshape
// shapes of grouped heads: a constant c (src ""), or dim axis of value
// src times mul.
type dimRef struct {
	c    int64
	src  string
	axis int
	mul  int64
}

// is reports whether r is dim axis of src, unscaled.
func (r dimRef) is(src string, axis int) bool { return r.src == src && r.axis == axis && r.mul == 1 }

// konst reports whether r is the constant c.
func (r dimRef) konst(c int64) bool { return r.src == "" && r.c == c }

// shapeVecDepth bounds how many nodes deep shapeVec follows a vector.
const shapeVecDepth = 8

// shapeVec returns the elements of v, a rank-0 or rank-1 int64 value,
// when it is a constant or is built from constants and dims of values'
// shapes by Shape, Gather (of constant indices on axis 0), Unsqueeze and
// Squeeze (of one element on axis 0), Concat (on axis 0), Cast (to int64)
// and Mul by a constant; and the nodes that build it, each once, in no
// order. ok is false otherwise.
func (f *fuser) shapeVec(v string, producer map[string]*Node) (refs []dimRef, nodes []*Node, ok bool) {
	seen := map[*Node]bool{}
	refs, ok = f.shapeVecAt(v, producer, seen, shapeVecDepth)
	for n := range seen {
		nodes = append(nodes, n)
	}
	return refs, nodes, ok
}

func (f *fuser) shapeVecAt(v string, producer map[string]*Node, seen map[*Node]bool, depth int) ([]dimRef, bool) {
	if c, ok := f.constInt64s(v); ok {
		refs := make([]dimRef, len(c))
		for i, x := range c {
			refs[i] = dimRef{c: x}
		}
		return refs, true
	}
	n := producer[v]
	if depth == 0 || n == nil || !isDefaultDomain(n.Domain) || f.removed[n] || n.Fused != nil ||
		len(n.Outputs) != 1 || n.Outputs[0] != v || len(n.Inputs) == 0 {
		return nil, false
	}
	if vi := f.g.Values[v]; vi == nil || vi.DType != payload.Int64 {
		return nil, false
	}
	seen[n] = true
	sub := func(i int) ([]dimRef, bool) { return f.shapeVecAt(n.Inputs[i], producer, seen, depth-1) }
	switch n.OpType {
	case "Shape":
		x := f.g.Values[n.Inputs[0]]
		if x == nil || !x.RankKnown {
			return nil, false
		}
		_, rule, err := BindNode(n, OpsetOf(f.g, n.Domain))
		a, ok := rule.(*ShapeAttrs)
		if err != nil || !ok {
			return nil, false
		}
		s, e := a.Span(len(x.Shape))
		refs := make([]dimRef, 0, e-s)
		for i := s; i < e; i++ {
			refs = append(refs, dimRef{src: n.Inputs[0], axis: i, mul: 1})
		}
		return refs, true
	case "Gather":
		if len(n.Inputs) != 2 {
			return nil, false
		}
		if ax, err := n.Int("axis", 0); err != nil || ax != 0 {
			return nil, false
		}
		data, ok := sub(0)
		idx, ok2 := f.constInt64s(n.Inputs[1])
		if !ok || !ok2 {
			return nil, false
		}
		refs := make([]dimRef, len(idx))
		for i, j := range idx {
			if j < 0 {
				j += int64(len(data))
			}
			if j < 0 || j >= int64(len(data)) {
				return nil, false
			}
			refs[i] = data[j]
		}
		return refs, true
	case "Unsqueeze", "Squeeze":
		x, ok := sub(0)
		if !ok || len(x) != 1 {
			return nil, false
		}
		var axes []int64
		if len(n.Inputs) >= 2 && n.Inputs[1] != "" {
			if axes, ok = f.constInt64s(n.Inputs[1]); !ok {
				return nil, false
			}
		} else {
			var err error
			if axes, err = n.Ints("axes", nil); err != nil {
				return nil, false
			}
		}
		if len(axes) > 1 || (len(axes) == 1 && axes[0] != 0 && axes[0] != -1) {
			return nil, false
		}
		return x, true
	case "Concat":
		if ax, err := n.Int("axis", 0); err != nil || (ax != 0 && ax != -1) {
			return nil, false
		}
		var refs []dimRef
		for i := range n.Inputs {
			x, ok := sub(i)
			if !ok {
				return nil, false
			}
			refs = append(refs, x...)
		}
		return refs, true
	case "Cast":
		return sub(0)
	case "Mul":
		if len(n.Inputs) != 2 {
			return nil, false
		}
		a, ok := sub(0)
		b, ok2 := sub(1)
		if !ok || !ok2 || len(a) != 1 || len(b) != 1 {
			return nil, false
		}
		if a[0].src == "" {
			a, b = b, a
		}
		if b[0].src != "" {
			return nil, false
		}
		r := a[0]
		if r.src == "" {
			r.c *= b[0].c
		} else {
			r.mul *= b[0].c
		}
		return []dimRef{r}, true
	}
	return nil, false
}

// deadWith returns those of cand whose every output is read only by
// nodes of chain or of the result (they die with chain), so that they
// can go with it.
func (f *fuser) deadWith(cand []*Node, chain []*Node) []*Node {
	in := map[*Node]bool{}
	for _, c := range chain {
		in[c] = true
	}
	keep := map[*Node]bool{}
	for _, c := range cand {
		keep[c] = true
	}
	for changed := true; changed; {
		changed = false
		for c := range keep {
			for _, o := range c.Outputs {
				for _, u := range f.users[o] {
					if u == nil || (!in[u] && !keep[u]) {
						delete(keep, c)
						changed = true
					}
				}
			}
		}
	}
	var out []*Node
	for _, c := range cand {
		if keep[c] {
			out = append(out, c)
			delete(keep, c) // each once
		}
	}
	return out
}
