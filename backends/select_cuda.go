//go:build cuda

package backends

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cuda"
	"github.com/lintel-ml/lintel/compute"
)

// This file is chosen by -tags cuda, with or without -tags metal: when
// both tags are given, the CUDA backend wins. Built without cgo
// (CGO_ENABLED=0), package cuda is a stub whose LoadModel fails with
// compute.ErrResourceUnavailable, so `go build -tags cuda` works anywhere.

// Name is the name of the backend the build tags chose.
const Name = cuda.Name

// Backend is the chosen backend's type, here cuda.Backend. It loads
// models: LoadModel(art) returns a *Model, refusing with
// compute.ErrUnsupported what the backend cannot run, and Capabilities
// describes the backend. As an alias it shows no methods in go doc: see
// "go doc github.com/lintel-ml/lintel/backends/cuda Backend".
type Backend[In, Out any] = cuda.Backend[In, Out]

// Model is the chosen backend's model type, here cuda.Model, a
// compute.ComputeModel: Init, then InferOne or InferBatch any number of
// times, then Close; Metadata describes its inputs and outputs, Reset and
// Drain are as compute.ComputeModel says. It is not safe for concurrent
// use (see batch.Batcher). As an alias it shows no methods in go doc: see
// "go doc github.com/lintel-ml/lintel/backends/cuda Model".
type Model[In, Out any] = cuda.Model[In, Out]

// New returns the chosen backend, configured by opts. Without a GPU, the
// driver or cgo, its LoadModel fails with compute.ErrResourceUnavailable.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	return cuda.New[In, Out](opts)
}

// Issue is one thing in a model the chosen backend cannot run.
type Issue = cuda.Issue

// Check lists every node of art the chosen backend would refuse, where
// LoadModel stops at the first; nil means no node is refused.
func Check(art *artifacts.Artifact, opts compute.Options) []Issue {
	return cuda.Check(art, opts)
}

// SupportedOps returns the default-domain op types the chosen backend
// runs, sorted.
func SupportedOps() []string { return cuda.SupportedOps() }
