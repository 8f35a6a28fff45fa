package gpu

import (
	"sort"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
)

// Check lists every node of art that Load would refuse because the kernels
// lack its op or domain, where Load stops at the first. It looks at the
// graph after the load-time passes, as Load does. Limits that only
// planning finds (element types, ranks) are reported by Load itself. name
// is the backend's name, for the messages.
func Check(art *artifacts.Artifact, name string) []cpu.Issue {
	if art == nil || art.Graph() == nil {
		return []cpu.Issue{{Err: errs.New(errs.InvalidArtifact, "%s: nil artifact", name)}}
	}
	g := art.Graph().Clone()
	var issues []cpu.Issue
	if err := model.Optimize(g, cpu.Evaluate); err != nil {
		issues = append(issues, cpu.Issue{Err: err})
		g = art.Graph().Clone()
	}
	for _, n := range g.Nodes {
		one := &model.Graph{Inputs: nil, Nodes: []*model.Node{n}, Initializers: g.Initializers}
		if err := checkGraph(one, art.Label(), name); err != nil {
			issues = append(issues, cpu.Issue{Node: n.Label(), Op: n.OpType, Domain: n.Domain, Err: err})
		}
	}
	for _, in := range g.Inputs {
		if err := checkGraph(&model.Graph{Inputs: []model.ValueInfo{in}}, art.Label(), name); err != nil {
			issues = append(issues, cpu.Issue{Err: err})
		}
	}
	return issues
}

// SupportedOps returns the default-domain op types the kernels run,
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
