package metal

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/payload"
)

// Name is the backend's name.
const Name = "metal"

// Model is a model compiled for an Apple GPU: the graph, its plans per
// input shape, its constants in shared-storage buffers and the arena its
// calls run in. In and Out are the payload types it takes and gives. It is
// the GPU backends' common model type. It is not safe for concurrent use.
type Model[In, Out any] = gpu.Model[In, Out]

// Backend loads models for an Apple GPU. In and Out are the payload types
// the models take and give: payload.Tensor[E] for one input (or output),
// payload.Multi for several.
type Backend[In, Out any] struct {
	opts compute.Options
	cfg  *gpu.Config
}

// New returns a Metal backend configured by opts. Loading a model fails
// with compute.ErrResourceUnavailable where Metal is missing: on any OS
// but macOS, or in a build without -tags metal.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	return newWith[In, Out](opts, openDevice)
}

// newWith returns a backend whose models run on devices from open.
func newWith[In, Out any](opts compute.Options, open func() (gpu.Device, error)) *Backend[In, Out] {
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	return &Backend[In, Out]{opts: opts, cfg: config(open)}
}

// config is the Metal backend's configuration of the portable layer:
// direct convolution, payloads in shared memory read in place.
func config(open func() (gpu.Device, error)) *gpu.Config {
	return &gpu.Config{
		Name:            Name,
		Open:            open,
		PreferredInput:  memclass.Shared,
		PreferredOutput: memclass.Host,
		AcceptedInput:   memclass.HostAccessible,
	}
}

// Capabilities says what the Metal backend supports.
func (b *Backend[In, Out]) Capabilities() compute.BackendCapabilities {
	return compute.BackendCapabilities{
		Name:          Name,
		DeviceStreams: 1,
		DTypes:        append([]payload.DType(nil), gpu.ComputeTypes...),
	}
}

// LoadModel checks that the backend runs everything art uses, compiles the
// kernels for the device and returns a model ready for Init. Unsupported
// ops, attributes and element types are refused with
// compute.ErrUnsupported; a machine without Metal gives
// compute.ErrResourceUnavailable.
func (b *Backend[In, Out]) LoadModel(art *artifacts.Artifact) (*Model[In, Out], error) {
	return gpu.Load[In, Out](b.cfg, b.opts, art)
}
