package model

import (
	"strconv"

	"github.com/lintel-ml/lintel/internal/errs"
)

// foldScan is what the passes that fold a node into the Conv before it
// (FoldBatchNorm, FoldConvAffine) need of a graph: how many readers each
// value has (graph outputs count), the node producing each value, and
// the names taken, so that new initializers get fresh ones.
type foldScan struct {
	uses     map[string]int
	producer map[string]*Node
	names    map[string]bool
}

// scanForFold scans g, refusing a nil graph or node.
func scanForFold(g *Graph) (*foldScan, error) {
	if g == nil {
		return nil, errs.New(errs.InvalidArtifact, "nil graph")
	}
	s := &foldScan{uses: map[string]int{}, producer: map[string]*Node{}, names: map[string]bool{}}
	for _, n := range g.Nodes {
		if n == nil {
			return nil, errs.New(errs.InvalidArtifact, "nil node")
		}
		for _, in := range n.Inputs {
			s.uses[in]++
		}
		for _, in := range implicitInputs(n) {
			s.uses[in]++
		}
		for _, o := range n.Outputs {
			s.names[o] = true
			if o != "" {
				s.producer[o] = n
			}
		}
	}
	for _, o := range g.Outputs {
		s.uses[o.Name]++
	}
	for _, in := range g.Inputs {
		s.names[in.Name] = true
	}
	for k := range g.Initializers {
		s.names[k] = true
	}
	for k := range g.Values {
		s.names[k] = true
	}
	return s, nil
}

// fresh returns a name not yet taken, base+suffix with a number after
// it if needed, and takes it.
func (s *foldScan) fresh(base, suffix string) string {
	for i := 0; ; i++ {
		n := base + suffix
		if i > 0 {
			n += strconv.Itoa(i)
		}
		if !s.names[n] {
			s.names[n] = true
			return n
		}
	}
}

// dropNodes removes the nodes in removed from g, keeping the order.
func dropNodes(g *Graph, removed map[*Node]bool) {
	if len(removed) == 0 {
		return
	}
	kept := make([]*Node, 0, len(g.Nodes)-len(removed))
	for _, n := range g.Nodes {
		if !removed[n] {
			kept = append(kept, n)
		}
	}
	g.Nodes = kept
}
