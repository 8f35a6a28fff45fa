package gpu

import (
	"errors"

	"github.com/lintel-ml/lintel/artifacts"
	"github.com/lintel-ml/lintel/backends/cpu"
	"github.com/lintel-ml/lintel/backends/internal/meta"
	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Config is what a backend tells the portable layer about itself.
type Config struct {
	// Name is the backend's name, used in error messages ("metal").
	Name string
	// Open returns a fresh device context: each model gets its own, so
	// models never share encoding state.
	Open func() (Device, error)
	// Im2Col lowers Conv (not depthwise) to an im2col_f32 launch and a
	// gemm_f32 step, which a device may run with a vendor GEMM, instead of
	// conv2d_f32.
	Im2Col bool
	// HalfGemm says the device runs gemm_f32 steps whose A and B are
	// 16-bit (GemmArgs.ABType) and cast_any to TF16 and TBF16: Load then
	// honours compute.Options.WeightType, storing the constant operand of
	// each GEMM step in 16 bits and casting the other at run time.
	// Without it the field is ignored.
	HalfGemm bool
	// PreferredInput, PreferredOutput and AcceptedInput go to the models'
	// metadata.
	PreferredInput, PreferredOutput memclass.Class
	AcceptedInput                   memclass.Set
}

// ComputeTypes are the element types the kernels compute in.
var ComputeTypes = []payload.DType{payload.Float32, payload.Int64, payload.Bool}

// Load checks that the kernels run everything art uses, opens a device
// from cfg, prepares every kernel on it and returns a model ready for
// Init. Unsupported ops, attributes and element types are refused with
// errs.Unsupported, and so is a compute.Options.WeightType other than
// float32, float16 and bfloat16 (which only a Config with HalfGemm
// honours); a device that cannot be opened gives its error
// (errs.ResourceUnavailable where the driver is missing).
func Load[In, Out any](cfg *Config, opts compute.Options, art *artifacts.Artifact) (m *Model[In, Out], err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, errs.New(errs.InvalidArtifact, "%s: internal error while loading: %v", cfg.Name, r)
		}
	}()
	if art == nil || art.Graph() == nil {
		return nil, errs.New(errs.InvalidArtifact, "%s: nil artifact", cfg.Name)
	}
	if err := CheckWeightType(cfg.Name, opts.WeightType); err != nil {
		return nil, err
	}
	if len(opts.Carries) > 0 {
		return nil, errs.New(errs.Unsupported, "%s: carried values (compute.Options.Carries) are not supported on this backend; feed each output back as an input", cfg.Name)
	}
	label := art.Label()
	g := art.Graph().Clone()
	if err := model.Optimize(g, cpu.Evaluate); err != nil {
		return nil, err
	}
	if err := checkGraph(g, label, cfg.Name); err != nil {
		return nil, err
	}
	half, err := weightType(cfg, opts.WeightType, g)
	if err != nil {
		return nil, err
	}
	m = &Model[In, Out]{cfg: cfg, g: g, label: label, maxBytes: MaxBytes(opts), half: half}
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
	p, err := buildPlan(cfg, g, probe, label, m.maxBytes, m.half)
	switch {
	case err == nil:
		if static {
			m.plans = append(m.plans, p)
		}
	case static || errors.Is(err, errs.Unsupported):
		return nil, err
	}
	m.meta = metadata(cfg, art.Graph(), g)
	dev, err := cfg.Open()
	if err != nil {
		return nil, err
	}
	all := make([]KernelID, NumKernels)
	for k := range all {
		all[k] = KernelID(k)
	}
	if err := dev.Compile(all); err != nil {
		dev.Close()
		return nil, err
	}
	m.dev = dev
	return m, nil
}

// MaxBytes returns the tensor size cap of opts.
func MaxBytes(opts compute.Options) int {
	mb := int64(compute.DefaultMaxTensorBytes)
	if opts.MaxTensorBytes > 0 && opts.MaxTensorBytes < mb {
		mb = opts.MaxTensorBytes
	}
	return int(min(mb, 1<<31-1))
}

// checkGraph refuses, at load, every node that neither runs on the device
// nor is computed from shapes and constants alone (those are folded on the
// host once the input shapes are known).
func checkGraph(g *model.Graph, label, name string) error {
	for _, in := range g.Inputs {
		if !in.DType.Valid() || in.DType.Size() == 0 || in.DType == payload.String {
			return errs.New(errs.Unsupported, "%s: input %q has element type %s", label, in.Name, in.DType)
		}
	}
	for _, vs := range [][]model.ValueInfo{g.Inputs, g.Outputs} {
		for _, v := range vs {
			if v.Kind != model.KindTensor {
				return errs.New(errs.Unsupported, "%s: %q is a value of kind %s, which the %s backend does not run", label, v.Name, v.Kind, name)
			}
		}
	}
	for _, v := range g.Values {
		if v.Kind != model.KindTensor {
			return errs.New(errs.Unsupported, "%s: %q is a value of kind %s, which the %s backend does not run", label, v.Name, v.Kind, name)
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
			return errs.New(errs.Unsupported, "node %q (%s): domain %q is not supported by the %s backend", n.Label(), n.OpType, n.Domain, name)
		}
		if registry[n.OpType] == nil {
			return errs.New(errs.Unsupported, "node %q (%s): op %s is not supported by the %s backend", n.Label(), n.OpType, n.OpType, name)
		}
	}
	return nil
}

// metadata describes a model.
func metadata(cfg *Config, orig, g *model.Graph) compute.ModelMetadata {
	md := compute.ModelMetadata{
		PreferredInput:  cfg.PreferredInput,
		PreferredOutput: cfg.PreferredOutput,
		AcceptedInput:   cfg.AcceptedInput,
	}
	md.Inputs, md.MaxInputBytes = meta.Tensors(orig.Inputs, nil)
	md.Outputs, md.MaxOutputBytes = meta.Tensors(g.Outputs, g.Values)
	return md
}
