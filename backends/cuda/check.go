package cuda

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
)

// Issue is one thing in a model that the backend cannot run; the type is
// shared with the CPU backend.
type Issue = cpu.Issue

// Check lists every node of art that LoadModel would refuse.
func Check(art *artifacts.Artifact, opts compute.Options) []Issue { return nil }

// SupportedOps returns the default-domain op types the kernels run, sorted.
func SupportedOps() []string { return nil }
