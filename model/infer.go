package model

import (
	"fmt"
	"sort"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// InferTypes fills g.Values with the element type and best-known shape of
// every value (graph inputs, initializers, every node output), merging with
// what the file declared (file dims refine unknowns; a conflict between a
// declared and an inferred known dim is an errs.InvalidArtifact error
// naming the node and value). Shapes use -1 for unknown dims; RankKnown
// false when the rank is unknown. Unknown op types (or other domains) get
// DType Undefined and unknown shape unless the file declared them — not an
// error here (backends refuse unsupported ops).
//
// Nodes are visited in g.Nodes order, so g should be sorted (see Sort).
// The subgraphs of If, Loop and Scan nodes are inferred too, before their
// node, with the values of their enclosing graphs in view; a subgraph
// output the file leaves untyped gets its inferred type.
func InferTypes(g *Graph) error { return inferGraph(g, nil, 0) }

// inferGraph infers g, a subgraph of the graphs outer describes when
// outer is not nil.
func inferGraph(g *Graph, outer *scope, depth int) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	if g.Values == nil {
		g.Values = map[string]*ValueInfo{}
	}
	for i := range g.Inputs {
		in := &g.Inputs[i]
		if err := g.mergeValue(nil, in.Name, *in); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(g.Initializers))
	for name := range g.Initializers {
		names = append(names, name)
	}
	sort.Strings(names) // the first conflict reported does not vary
	for _, name := range names {
		t := g.Initializers[name]
		if t == nil {
			return errs.New(errs.InvalidArtifact, "initializer %q is nil", name)
		}
		if err := g.mergeValue(nil, name, ranked(t.DType, copyDims(t.Shape))); err != nil {
			return err
		}
	}
	sc := &scope{g: g, parent: outer}
	for _, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		outs, err := inferNode(sc, n, depth)
		if err != nil {
			return err
		}
		for i, name := range n.Outputs {
			if name == "" {
				continue
			}
			var v ValueInfo
			if i < len(outs) {
				v = outs[i]
			}
			if len(v.Shape) > maxRank {
				return errs.New(errs.InvalidArtifact, "node %q (%s): output %q: rank %d is too large", n.Label(), n.OpType, name, len(v.Shape))
			}
			if err := g.mergeValue(n, name, v); err != nil {
				return err
			}
		}
	}
	for i := range g.Outputs {
		out := &g.Outputs[i]
		if out.DType == payload.Undefined && !out.RankKnown {
			continue
		}
		if err := g.mergeValue(nil, out.Name, *out); err != nil {
			return err
		}
	}
	return nil
}

// mergeValue merges inf into g.Values[name]; n is the producing node, for
// messages.
func (g *Graph) mergeValue(n *Node, name string, inf ValueInfo) error {
	decl := g.Values[name]
	if decl == nil {
		v := ValueInfo{Name: name, DType: inf.DType, RankKnown: inf.RankKnown, Kind: inf.Kind}
		if inf.RankKnown {
			v.Shape = copyDims(inf.Shape)
			if v.Shape == nil {
				v.Shape = []int{}
			}
			if len(inf.DimParams) == len(inf.Shape) {
				v.DimParams = append([]string(nil), inf.DimParams...)
			}
		}
		g.Values[name] = &v
		return nil
	}
	where := func() string {
		if n != nil {
			return fmt.Sprintf("node %q (%s): value %q", n.Label(), n.OpType, name)
		}
		return fmt.Sprintf("value %q", name)
	}
	dt := decl.DType
	switch {
	case inf.DType == payload.Undefined:
	case dt == payload.Undefined:
		dt = inf.DType
	case dt != inf.DType:
		return errs.New(errs.InvalidArtifact, "%s: declared element type %s, inferred %s", where(), dt, inf.DType)
	}
	out := ValueInfo{Name: name, DType: dt, Kind: max(decl.Kind, inf.Kind)}
	switch {
	case !inf.RankKnown:
		out.Shape, out.RankKnown, out.DimParams = decl.Shape, decl.RankKnown, decl.DimParams
	case !decl.RankKnown:
		out.Shape, out.RankKnown = copyDims(inf.Shape), true
		if out.Shape == nil {
			out.Shape = []int{}
		}
	default:
		if len(decl.Shape) != len(inf.Shape) {
			return errs.New(errs.InvalidArtifact, "%s: declared shape %v, inferred %v", where(), decl.Shape, inf.Shape)
		}
		s := make([]int, len(inf.Shape))
		for i := range s {
			a, b := decl.Shape[i], inf.Shape[i]
			switch {
			case a < 0:
				s[i] = b
			case b < 0 || a == b:
				s[i] = a
			default:
				return errs.New(errs.InvalidArtifact, "%s: declared shape %v, inferred %v", where(), decl.Shape, inf.Shape)
			}
		}
		out.Shape, out.RankKnown = s, true
		if len(decl.DimParams) == len(s) {
			out.DimParams = decl.DimParams
		}
	}
	*decl = out
	return nil
}
