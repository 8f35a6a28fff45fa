package model

import (
	"errors"
	"strconv"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// Subgraphs.
//
// If, Loop and Scan hold graphs in their attributes. A subgraph's nodes may
// use, by name, any value of the graphs around it (its outer scope) as
// well as its own formal inputs, initializers and node outputs; a name it
// defines hides an outer one. Sort validates and orders every subgraph
// with its outer scope in view, and InferTypes infers every subgraph
// before the node that holds it, after giving the subgraph's untyped
// formal inputs what the node's inputs say of them (SubgraphRule).

// SubgraphRule is implemented by the rules of ops that run subgraphs.
// InferTypes infers each of the node's subgraphs before running the
// rule, which then reads the types of the subgraphs' outputs.
type SubgraphRule interface {
	Rule
	// Subgraphs returns the node's subgraphs.
	Subgraphs() []*Graph
	// SubgraphInputs returns, for subgraph k, one ValueInfo per formal
	// input: what the node's inputs, as c knows them, say of it. A zero
	// DType or an unknown rank leaves that part as the file declared it.
	SubgraphInputs(c *InferCtx, k int) []ValueInfo
}

// scope is what a graph's nodes see: the graph's own values, then those of
// each enclosing graph out to the model's.
type scope struct {
	g      *Graph
	names  map[string]bool // every value g defines, for Sort
	parent *scope
}

// value returns the type recorded for name in the innermost graph that
// knows it, or nil.
func (s *scope) value(name string) *ValueInfo {
	for ; s != nil; s = s.parent {
		if v := s.g.Values[name]; v != nil {
			return v
		}
	}
	return nil
}

// constant returns the initializer named name in the innermost graph
// that has one, or nil. Names are single-assignment across nested graphs
// (ONNX's rule), so an outer constant is what the name means.
func (s *scope) constant(name string) *Tensor {
	if name == "" {
		return nil
	}
	for ; s != nil; s = s.parent {
		if t := s.g.Initializers[name]; t != nil {
			return t
		}
	}
	return nil
}

// has reports whether any graph of s defines name (Sort's scopes).
func (s *scope) has(name string) bool {
	for ; s != nil; s = s.parent {
		if s.names[name] {
			return true
		}
	}
	return false
}

// definedNames returns every value g defines: its inputs, initializers
// and node outputs.
func definedNames(g *Graph) map[string]bool {
	def := make(map[string]bool, len(g.Inputs)+len(g.Initializers)+len(g.Nodes))
	for _, in := range g.Inputs {
		def[in.Name] = true
	}
	for name := range g.Initializers {
		def[name] = true
	}
	for _, n := range g.Nodes {
		if n == nil {
			continue
		}
		for _, o := range n.Outputs {
			if o != "" {
				def[o] = true
			}
		}
	}
	return def
}

// Captures returns the names g (a subgraph) uses without defining them,
// in its nested subgraphs and outputs too: the values of its outer scope
// that running it needs, in order of first use.
func Captures(g *Graph) []string { return subgraphFree(g, 0) }

// NodeSubgraphs returns the graphs held by n's attributes, in attribute
// order.
func NodeSubgraphs(n *Node) []*Graph {
	var gs []*Graph
	for _, a := range n.Attrs {
		if a.G != nil {
			gs = append(gs, a.G)
		}
		for _, sg := range a.Graphs {
			if sg != nil {
				gs = append(gs, sg)
			}
		}
	}
	return gs
}

// maxNesting bounds how deep subgraphs nest; the decoder's limit is lower.
const maxNesting = 64

// inferSubgraphs infers the subgraphs of n, a node of the graph sc
// describes, giving their formal inputs what sr says of them.
func inferSubgraphs(sc *scope, n *Node, sr SubgraphRule, c *InferCtx, depth int) error {
	if depth > maxNesting {
		return errs.New(errs.InvalidArtifact, "node %q (%s): subgraphs nested more than %d deep", n.Label(), n.OpType, maxNesting)
	}
	alt, _ := sr.(alternatives)
	var failed error
	for k, sg := range sr.Subgraphs() {
		if sg == nil {
			continue
		}
		if alt != nil && !alt.mayRun(c, k) {
			continue
		}
		err := inferSubgraph(sc, n, sr, c, k, sg, depth)
		switch {
		case err == nil:
		case alt == nil:
			return err
		case failed != nil:
			return failed
		default:
			failed = err
		}
	}
	return nil
}

// alternatives is implemented by the rules of ops that run one of their
// subgraphs (If). A subgraph that cannot run may be one that never runs
// for the model's inputs, as in functions expanded for every rank:
// inference then leaves it partly typed instead of failing, unless every
// subgraph fails.
type alternatives interface {
	// mayRun reports whether subgraph k may run, as far as c knows.
	mayRun(c *InferCtx, k int) bool
}

// inferSubgraph infers subgraph k of n, sg.
func inferSubgraph(sc *scope, n *Node, sr SubgraphRule, c *InferCtx, k int, sg *Graph, depth int) error {
	formal := sr.SubgraphInputs(c, k)
	for i := range sg.Inputs {
		if i >= len(formal) {
			break
		}
		if err := refineInput(n, sg, i, formal[i]); err != nil {
			return err
		}
	}
	if err := inferGraph(sg, sc, depth+1); err != nil {
		return Within(n, sg, err)
	}
	inner := &scope{g: sg, parent: sc}
	for i := range sg.Outputs {
		o := &sg.Outputs[i]
		if v := inner.value(o.Name); v != nil {
			name := o.Name
			*o = v.clone()
			o.Name = name
		}
	}
	return nil
}

// refineInput gives subgraph input i of sg what v says of it where the
// file left it out; a declared element type that differs from v's is an
// error.
func refineInput(n *Node, sg *Graph, i int, v ValueInfo) error {
	in := &sg.Inputs[i]
	switch {
	case v.DType == payload.Undefined:
	case in.DType == payload.Undefined:
		in.DType = v.DType
	case in.DType != v.DType:
		return errs.New(errs.InvalidArtifact, "node %q (%s): subgraph input %q is declared %s, but the node gives it %s", n.Label(), n.OpType, in.Name, in.DType, v.DType)
	}
	in.Kind = max(in.Kind, v.Kind)
	if !in.RankKnown && v.RankKnown {
		in.Shape, in.RankKnown, in.DimParams = copyDims(v.Shape), true, nil
		if in.Shape == nil {
			in.Shape = []int{}
		}
	}
	if d := sg.Values[in.Name]; d != nil {
		if d.DType == payload.Undefined {
			d.DType = in.DType
		}
		d.Kind = max(d.Kind, in.Kind)
		if !d.RankKnown && in.RankKnown {
			d.Shape, d.RankKnown = copyDims(in.Shape), true
		}
	}
	return nil
}

// MergeTypes returns what is known of a value that is either a or b: the
// element type they share (an error when both are known and differ), and
// the dims where both agree, -1 where they differ, an unknown rank where
// the ranks differ.
func MergeTypes(a, b ValueInfo) (ValueInfo, bool) {
	out := ValueInfo{Name: a.Name, DType: a.DType, Kind: max(a.Kind, b.Kind)}
	switch {
	case a.DType == payload.Undefined:
		out.DType = b.DType
	case b.DType != payload.Undefined && a.DType != b.DType:
		return out, false
	}
	if a.RankKnown && b.RankKnown && len(a.Shape) == len(b.Shape) {
		out.RankKnown = true
		out.Shape = make([]int, len(a.Shape))
		for i := range out.Shape {
			out.Shape[i] = a.Shape[i]
			if a.Shape[i] != b.Shape[i] {
				out.Shape[i] = -1
			}
		}
	}
	return out, true
}

// Within returns err, about something inside subgraph sg of node n, with
// n and sg named in front of its message; its kind is kept.
func Within(n *Node, sg *Graph, err error) error {
	where := "node " + strconv.Quote(n.Label()) + " (" + n.OpType + ")"
	if sg != nil {
		for _, a := range n.Attrs {
			if a.G == sg {
				where += ", " + a.Name
			}
			for i, g := range a.Graphs {
				if g == sg {
					where += ", " + a.Name + "[" + strconv.Itoa(i) + "]"
				}
			}
		}
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return &errs.Error{Kind: e.Kind, Msg: where + ": " + e.Msg, Cause: e.Cause, Brief: e.Brief}
	}
	return errs.Wrap(errs.InvalidArtifact, err, "%s", where)
}
