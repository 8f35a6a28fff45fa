//go:build cuda && cgo

package cuda

import (
	"github.com/lintel-ml/lintel/artifacts"
	core "github.com/lintel-ml/lintel/backends/internal/gpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/memclass"
)

// Model is a model compiled for an NVIDIA GPU: the graph, its plans per
// input shape with their recorded CUDA graphs, its weights in device
// memory and the arena its calls run in. In and Out are the payload types
// it takes and gives. It is the GPU backends' common model type. It is not
// safe for concurrent use.
type Model[In, Out any] = core.Model[In, Out]

// Backend loads models for an NVIDIA GPU. In and Out are the payload
// types the models take and give: payload.Tensor[E] for one input (or
// output), payload.Multi for several. A Backend is safe for concurrent
// use; each model it loads has its own stream and cuBLAS handle.
type Backend[In, Out any] struct {
	opts compute.Options
	cfg  *core.Config
}

// New returns a CUDA backend configured by opts. Loading a model fails
// with compute.ErrResourceUnavailable where the driver or a GPU is
// missing.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	return &Backend[In, Out]{opts: opts, cfg: config(opts)}
}

// The memory classes models prefer and accept: payloads in pinned host
// memory move by DMA, and device payloads from NewTensor stay on the GPU.
var (
	preferred = memclass.Pinned
	accepted  = memclass.SetOf(memclass.Host, memclass.Pinned, memclass.Device(ordinal))
)

// config is the CUDA backend's configuration of the portable layer:
// convolutions lowered to im2col and a matrix product (which runs on
// cuBLAS) when the PTX has im2col_f32, 16-bit weights
// (compute.Options.WeightType) run as cuBLAS GemmEx products, payloads
// preferred in pinned memory and accepted in device memory.
func config(opts compute.Options) *core.Config {
	return &core.Config{
		Name: Name,
		Open: func() (core.Device, error) {
			d, err := openDevice(opts.TF32)
			if err != nil {
				return nil, err
			}
			return d, nil
		},
		Im2Col:          inPTX(core.KernelNames[core.KIm2Col]),
		HalfGemm:        true,
		PreferredInput:  preferred,
		PreferredOutput: preferred,
		AcceptedInput:   accepted,
	}
}

// Capabilities says what the CUDA backend supports.
func (b *Backend[In, Out]) Capabilities() compute.BackendCapabilities {
	return capabilities()
}

// LoadModel checks that the kernels run everything art uses, opens the
// GPU, loads the kernels and returns a model ready for Init, which
// uploads the weights. Unsupported ops, attributes and element types are
// refused with compute.ErrUnsupported, naming the node; a machine without
// the driver or a GPU gives compute.ErrResourceUnavailable.
func (b *Backend[In, Out]) LoadModel(art *artifacts.Artifact) (*Model[In, Out], error) {
	return core.Load[In, Out](b.cfg, b.opts, art)
}
