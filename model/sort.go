package model

import (
	"container/heap"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Sort orders g.Nodes topologically (stable: file order among ready nodes)
// and validates the graph: every node input is a graph input, an
// initializer or the output of exactly one node; no value is produced twice
// or produced by a node and also an input/initializer; no cycles; every
// graph output is produced, an input or an initializer; empty node output
// names are allowed (unused optional outputs). Errors wrap
// errs.InvalidArtifact and name the node and value.
//
// Values that a node's subgraphs (If, Loop...) use from the enclosing graph
// count as that node's inputs for the order. Every subgraph is sorted and
// validated the same way, where a name may also be a value of an
// enclosing graph.
func Sort(g *Graph) error { return sortGraph(g, nil, 0) }

// sortGraph sorts g, a subgraph when sc (its enclosing scope) is not nil.
func sortGraph(g *Graph, sc *scope, depth int) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	if depth > maxNesting {
		return errs.New(errs.InvalidArtifact, "subgraphs nested more than %d deep", maxNesting)
	}
	outer := map[string]bool{} // graph inputs and initializers
	for _, in := range g.Inputs {
		if in.Name == "" {
			return errs.New(errs.InvalidArtifact, "graph input with an empty name")
		}
		if outer[in.Name] {
			return errs.New(errs.InvalidArtifact, "graph input %q declared twice", in.Name)
		}
		outer[in.Name] = true
	}
	for name := range g.Initializers {
		if outer[name] {
			return errs.New(errs.InvalidArtifact, "value %q is both a graph input and an initializer", name)
		}
		outer[name] = true
	}
	producer := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "node %d is nil", i)
		}
		for _, o := range n.Outputs {
			if o == "" {
				continue
			}
			if outer[o] {
				return errs.New(errs.InvalidArtifact, "node %q (%s): output %q is also a graph input or initializer", n.Label(), n.OpType, o)
			}
			if j, dup := producer[o]; dup {
				return errs.New(errs.InvalidArtifact, "node %q (%s): output %q is also produced by node %q", n.Label(), n.OpType, o, g.Nodes[j].Label())
			}
			producer[o] = i
		}
	}
	// Edges: producer -> consumer, counted once per distinct value.
	indeg := make([]int, len(g.Nodes))
	users := make([][]int, len(g.Nodes))
	for i, n := range g.Nodes {
		seen := map[string]bool{}
		add := func(name string, implicit bool) error {
			if name == "" || seen[name] {
				return nil
			}
			seen[name] = true
			if outer[name] {
				return nil
			}
			p, ok := producer[name]
			switch {
			case !ok && sc.has(name):
				// A value of an enclosing graph.
				return nil
			case !ok && implicit:
				// A subgraph's own value or one of an enclosing scope.
				return nil
			case !ok:
				return errs.New(errs.InvalidArtifact, "node %q (%s): input %q is not a graph input, an initializer or a node output", n.Label(), n.OpType, name)
			case p == i:
				return errs.New(errs.InvalidArtifact, "node %q (%s): input %q is its own output", n.Label(), n.OpType, name)
			}
			indeg[i]++
			users[p] = append(users[p], i)
			return nil
		}
		for _, in := range n.Inputs {
			if err := add(in, false); err != nil {
				return err
			}
		}
		for _, in := range implicitInputs(n) {
			if err := add(in, true); err != nil {
				return err
			}
		}
	}
	for _, out := range g.Outputs {
		if out.Name == "" {
			return errs.New(errs.InvalidArtifact, "graph output with an empty name")
		}
		if _, ok := producer[out.Name]; !ok && !outer[out.Name] && !sc.has(out.Name) {
			return errs.New(errs.InvalidArtifact, "graph output %q is not produced by any node, nor an input or initializer", out.Name)
		}
	}
	ready := &intHeap{}
	for i := range g.Nodes {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	order := make([]*Node, 0, len(g.Nodes))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		order = append(order, g.Nodes[i])
		for _, u := range users[i] {
			if indeg[u]--; indeg[u] == 0 {
				heap.Push(ready, u)
			}
		}
	}
	if len(order) != len(g.Nodes) {
		// Walk back along unsorted producers: after len(g.Nodes) steps the
		// walk is inside a cycle.
		cur := -1
		for i := range g.Nodes {
			if indeg[i] > 0 {
				cur = i
				break
			}
		}
		via := ""
		for step := 0; step <= len(g.Nodes); step++ {
			next := -1
			for _, in := range append(append([]string{}, g.Nodes[cur].Inputs...), implicitInputs(g.Nodes[cur])...) {
				if p, ok := producer[in]; ok && indeg[p] > 0 {
					next, via = p, in
					break
				}
			}
			if next < 0 {
				break
			}
			cur = next
		}
		n := g.Nodes[cur]
		return errs.New(errs.InvalidArtifact, "node %q (%s): output %q is part of a cycle", n.Label(), n.OpType, via)
	}
	copy(g.Nodes, order)
	inner := &scope{g: g, names: definedNames(g), parent: sc}
	for _, n := range g.Nodes {
		for _, sg := range NodeSubgraphs(n) {
			if err := sortGraph(sg, inner, depth+1); err != nil {
				return Within(n, sg, err)
			}
		}
	}
	return nil
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// implicitInputs returns the names n's subgraphs use without defining
// them: values of an enclosing scope.
func implicitInputs(n *Node) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range n.Attrs {
		gs := a.Graphs
		if a.G != nil {
			gs = append([]*Graph{a.G}, gs...)
		}
		for _, sg := range gs {
			for _, name := range subgraphFree(sg, 0) {
				if !seen[name] {
					seen[name] = true
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// subgraphFree returns the names g's nodes use that g does not define.
func subgraphFree(g *Graph, depth int) []string {
	if g == nil || depth > 32 {
		return nil
	}
	def := map[string]bool{}
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
			def[o] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	use := func(name string) {
		if name != "" && !def[name] && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, n := range g.Nodes {
		if n == nil {
			continue
		}
		for _, in := range n.Inputs {
			use(in)
		}
		for _, a := range n.Attrs {
			gs := a.Graphs
			if a.G != nil {
				gs = append([]*Graph{a.G}, gs...)
			}
			for _, sg := range gs {
				for _, name := range subgraphFree(sg, depth+1) {
					use(name)
				}
			}
		}
	}
	for _, o := range g.Outputs {
		use(o.Name)
	}
	return out
}
