//go:build metal && !cuda

package backends

import (
	"github.com/lintel-ml/lintel/backends/metal"
	"github.com/lintel-ml/lintel/compute"
)

// Name is the name of the backend the build tags chose.
const Name = metal.Name

// Backend is the chosen backend's type.
type Backend[In, Out any] = metal.Backend[In, Out]

// Model is the chosen backend's model type.
type Model[In, Out any] = metal.Model[In, Out]

// New returns the chosen backend, configured by opts. Outside macOS the
// Metal backend builds, but its LoadModel fails with
// compute.ErrResourceUnavailable.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	return metal.New[In, Out](opts)
}
