//go:build metal && !cuda

package backends

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/metal"
	"github.com/lintel-ml/lintel/compute"
)

// Name is the name of the backend the build tags chose.
const Name = metal.Name

// Backend is the chosen backend's type, here metal.Backend. It loads
// models: LoadModel(art) returns a *Model, refusing with
// compute.ErrUnsupported what the backend cannot run, and Capabilities
// describes the backend. As an alias it shows no methods in go doc: see
// "go doc github.com/lintel-ml/lintel/backends/metal Backend".
type Backend[In, Out any] = metal.Backend[In, Out]

// Model is the chosen backend's model type, here metal.Model, a
// compute.ComputeModel: Init, then InferOne or InferBatch any number of
// times, then Close; Metadata describes its inputs and outputs, Reset and
// Drain are as compute.ComputeModel says. It is not safe for concurrent
// use (see batch.Batcher). As an alias it shows no methods in go doc: see
// "go doc github.com/lintel-ml/lintel/backends/metal Model".
type Model[In, Out any] = metal.Model[In, Out]

// New returns the chosen backend, configured by opts. Outside macOS the
// Metal backend builds, but its LoadModel fails with
// compute.ErrResourceUnavailable.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	return metal.New[In, Out](opts)
}

// Issue is one thing in a model the chosen backend cannot run.
type Issue = metal.Issue

// Check lists every node of art the chosen backend would refuse, where
// LoadModel stops at the first; nil means no node is refused.
func Check(art *artifacts.Artifact, opts compute.Options) []Issue {
	return metal.Check(art, opts)
}

// SupportedOps returns the default-domain op types the chosen backend
// runs, sorted.
func SupportedOps() []string { return metal.SupportedOps() }
