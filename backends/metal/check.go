package metal

import (
	"sort"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// Issue is one thing in a model that the backend cannot run; the type is
// shared with the CPU backend.
type Issue = cpu.Issue

// Check lists every node of art that LoadModel would refuse because the
// Metal kernels lack its op or domain, where LoadModel stops at the first.
// It looks at the graph after the load-time passes, as LoadModel does.
// Limits that only planning finds (element types, ranks) are reported by
// LoadModel itself.
func Check(art *artifacts.Artifact, opts compute.Options) []Issue {
	if art == nil || art.Graph() == nil {
		return []Issue{{Err: errs.New(errs.InvalidArtifact, "metal: nil artifact")}}
	}
	g := art.Graph().Clone()
	var issues []Issue
	if err := model.Optimize(g, cpu.Evaluate); err != nil {
		issues = append(issues, Issue{Err: err})
		g = art.Graph().Clone()
	}
	for _, n := range g.Nodes {
		one := &model.Graph{Inputs: nil, Nodes: []*model.Node{n}, Initializers: g.Initializers}
		if err := checkGraph(one, art.Label()); err != nil {
			issues = append(issues, Issue{Node: n.Label(), Op: n.OpType, Domain: n.Domain, Err: err})
		}
	}
	for _, in := range g.Inputs {
		if err := checkGraph(&model.Graph{Inputs: []model.ValueInfo{in}}, art.Label()); err != nil {
			issues = append(issues, Issue{Err: err})
		}
	}
	return issues
}

// SupportedOps returns the default-domain op types the Metal kernels run,
// sorted. Ops computed only from shapes and constants are folded on the
// host and need no kernel.
func SupportedOps() []string {
	ops := make([]string, 0, len(registry))
	for op := range registry {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}
