package metal

import (
	"errors"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Name is the backend's name.
const Name = "metal"

// Backend loads models for an Apple GPU. In and Out are the payload types
// the models take and give: payload.Tensor[E] for one input (or output),
// payload.Multi for several.
type Backend[In, Out any] struct {
	opts compute.Options
	// open returns a fresh device context: each model gets its own queue
	// and pipelines, so models never share encoding state.
	open func() (device, error)
}

// New returns a Metal backend configured by opts. Loading a model fails
// with compute.ErrResourceUnavailable where Metal is missing: on any OS
// but macOS, or in a build without -tags metal.
func New[In, Out any](opts compute.Options) *Backend[In, Out] {
	return newWith[In, Out](opts, openDevice)
}

// newWith returns a backend whose models run on devices from open.
func newWith[In, Out any](opts compute.Options, open func() (device, error)) *Backend[In, Out] {
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	return &Backend[In, Out]{opts: opts, open: open}
}

// computeTypes are the element types the kernels compute in.
var computeTypes = []payload.DType{payload.Float32, payload.Int64, payload.Bool}

// Capabilities says what the Metal backend supports.
func (b *Backend[In, Out]) Capabilities() compute.BackendCapabilities {
	return compute.BackendCapabilities{
		Name:          Name,
		DeviceStreams: 1,
		DTypes:        append([]payload.DType(nil), computeTypes...),
	}
}

// LoadModel checks that the backend runs everything art uses, compiles the
// kernels for the device and returns a model ready for Init. Unsupported
// ops, attributes and element types are refused with
// compute.ErrUnsupported; a machine without Metal gives
// compute.ErrResourceUnavailable.
func (b *Backend[In, Out]) LoadModel(art *artifacts.Artifact) (m *Model[In, Out], err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, errs.New(errs.InvalidArtifact, "metal: internal error while loading: %v", r)
		}
	}()
	if art == nil || art.Graph() == nil {
		return nil, errs.New(errs.InvalidArtifact, "metal: nil artifact")
	}
	label := art.Label()
	g := art.Graph().Clone()
	if err := model.Optimize(g, cpu.Evaluate); err != nil {
		return nil, err
	}
	if err := checkGraph(g, label); err != nil {
		return nil, err
	}
	m = &Model[In, Out]{g: g, label: label, maxBytes: maxBytes(b.opts)}
	if err := m.bindTypes(); err != nil {
		return nil, err
	}
	// Plan once at the declared shapes, free dims taken as 1, so that
	// what the kernels lack is refused now rather than at inference.
	probe := make([][]int, len(g.Inputs))
	static := true
	for i, in := range g.Inputs {
		probe[i] = make([]int, len(in.Shape))
		for j, d := range in.Shape {
			if d < 0 {
				d, static = 1, false
			}
			probe[i][j] = d
		}
	}
	p, err := buildPlan(g, probe, label, m.maxBytes)
	switch {
	case err == nil:
		if static {
			m.plans = append(m.plans, p)
		}
	case static || errors.Is(err, errs.Unsupported):
		return nil, err
	}
	m.meta = metadata(art.Graph(), g)
	dev, err := b.open()
	if err != nil {
		return nil, err
	}
	all := make([]kernelID, numKernels)
	for k := range all {
		all[k] = kernelID(k)
	}
	if err := dev.compile(all); err != nil {
		dev.close()
		return nil, err
	}
	m.dev = dev
	return m, nil
}

// maxBytes returns the tensor size cap of opts.
func maxBytes(opts compute.Options) int {
	mb := int64(compute.DefaultMaxTensorBytes)
	if opts.MaxTensorBytes > 0 && opts.MaxTensorBytes < mb {
		mb = opts.MaxTensorBytes
	}
	return int(min(mb, 1<<31-1))
}

// checkGraph refuses, at load, every node that neither runs on the device
// nor is computed from shapes and constants alone (those are folded on the
// host once the input shapes are known).
func checkGraph(g *model.Graph, label string) error {
	for _, in := range g.Inputs {
		if !in.DType.Valid() || in.DType.Size() == 0 || in.DType == payload.String {
			return errs.New(errs.Unsupported, "%s: input %q has element type %s", label, in.Name, in.DType)
		}
	}
	hostOps := map[string]bool{}
	for _, op := range cpu.SupportedOps() {
		hostOps[op] = true
	}
	shapeOnly := map[string]bool{}
	for name := range g.Initializers {
		shapeOnly[name] = true
	}
	for _, n := range g.Nodes {
		derived := n.OpType == "Shape" || n.OpType == "Size"
		if !derived {
			derived = true
			for _, in := range n.Inputs {
				if in != "" && !shapeOnly[in] {
					derived = false
				}
			}
		}
		if derived && (n.Domain == "" || n.Domain == "ai.onnx") && hostOps[n.OpType] {
			for _, o := range n.Outputs {
				shapeOnly[o] = true
			}
			continue
		}
		if n.Domain != "" && n.Domain != "ai.onnx" {
			return errs.New(errs.Unsupported, "node %q (%s): domain %q is not supported by the metal backend", n.Label(), n.OpType, n.Domain)
		}
		if registry[n.OpType] == nil {
			return errs.New(errs.Unsupported, "node %q (%s): op %s is not supported by the metal backend", n.Label(), n.OpType, n.OpType)
		}
	}
	return nil
}
