package cuda

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/compute"
)

// Issue is one thing in a model that the backend cannot run; the type is
// shared with the CPU backend.
type Issue = cpu.Issue

// Check lists every node of art that LoadModel would refuse because the
// CUDA kernels lack its op or domain, where LoadModel stops at the first.
// It looks at the graph after the load-time passes, as LoadModel does, and
// needs no GPU: a build without cgo answers the same. Limits that only
// planning finds (element types, ranks) are reported by LoadModel itself.
//
// A compute.Options.WeightType other than float32, float16 and bfloat16
// is the one issue reported, as LoadModel refuses it first.
func Check(art *artifacts.Artifact, opts compute.Options) []Issue {
	if err := core.CheckWeightType(Name, opts.WeightType); err != nil {
		return []Issue{{Err: err}}
	}
	return core.Check(art, Name)
}

// SupportedOps returns the default-domain op types the CUDA kernels run,
// sorted. Ops computed only from shapes and constants are folded on the
// host and need no kernel.
func SupportedOps() []string { return core.SupportedOps() }
