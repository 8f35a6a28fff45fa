package cpu

import (
	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// Name is the backend's name.
const Name = "cpu"

// Backend loads models for the CPU. In and Out are the payload types the
// models take and give: payload.Tensor[E] for a model with one input (or
// output), payload.Multi for any number of mixed element types.
//
// Loading one artifact several times on one Backend shares its read-only
// data (optimized graph, constants, precomputed weights) between the
// instances; each adds only its own scratch buffers.
type Backend[In, Out any] struct {
	opts  compute.Options
	share shareCache
}

// New returns a CPU backend configured by opts.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	return &Backend[In, Out]{opts: opts}
}

// computeTypes are the element types kernels compute in; other types
// appear at a model's edges through Cast.
var computeTypes = []payload.DType{payload.Float32, payload.Float64, payload.Int32, payload.Int64, payload.Bool}

// Capabilities says what the CPU backend supports.
func (b *Backend[In, Out]) Capabilities() compute.BackendCapabilities {
	return compute.BackendCapabilities{
		Name:          Name,
		DeviceStreams: 1,
		MaxBatch:      0,
		DTypes:        append([]payload.DType(nil), computeTypes...),
	}
}

// LoadModel compiles art for the CPU. It refuses, with
// compute.ErrUnsupported, any op, attribute value or element type the
// backend lacks and a compute.Options.WeightType other than float32,
// float16 or bfloat16, and payload types that do not fit the model's inputs and
// outputs with compute.ErrShapeMismatch.
func (b *Backend[In, Out]) LoadModel(art *artifacts.Artifact) (m *Model[In, Out], err error) {
	defer func() {
		// A load-time check that panics on a hostile graph is a bug; the
		// caller still gets an error, not a crash.
		if r := recover(); r != nil {
			m, err = nil, errs.New(errs.InvalidArtifact, "cpu: internal error while loading: %v", r)
		}
	}()
	if art == nil || art.Graph() == nil {
		return nil, errs.New(errs.InvalidArtifact, "cpu: nil artifact")
	}
	if _, err := weightHalf(b.opts.WeightType); err != nil {
		return nil, err
	}
	sh, err := b.share.get(art)
	if err != nil {
		return nil, err
	}
	p, err := compile(sh.g, b.opts, art.Label(), sh)
	if err != nil {
		return nil, err
	}
	m = &Model[In, Out]{prog: p, label: art.Label()}
	if err := m.bindTypes(); err != nil {
		return nil, err
	}
	m.meta = p.metadata(art.Graph())
	return m, nil
}
