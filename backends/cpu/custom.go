package cpu

import (
	"sync"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/memclass"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// CustomOp is an op of a service's own domain, run by Go code on the CPU
// backend. A model whose graph uses it loads and runs like any other once
// it is registered (RegisterCustomOp).
type CustomOp struct {
	// Domain is the op's domain, such as "com.example"; it must not be
	// ONNX's ("" or "ai.onnx"), whose ops lintel defines.
	Domain string
	// Type is the op type, as a node's op_type names it.
	Type string
	// MinInputs inputs are required, at most MaxInputs are allowed; the
	// op has at most Outputs outputs.
	MinInputs, MaxInputs, Outputs int
	// New reads one node's attributes (model.Node's Int, Float, Ints...)
	// and returns its kernel, or an error wrapping
	// compute.ErrInvalidArtifact for a malformed node or
	// compute.ErrUnsupported for one it cannot run. It is called when a
	// model is loaded, once per node and pass.
	New func(n *model.Node) (CustomKernel, error)
}

// CustomKernel is one node's kernel of a CustomOp, with the node's
// attributes read.
type CustomKernel interface {
	// Infer is the op's type and shape rule: it sets every output's
	// element type and shape from the inputs' (see model.InferCtx). It
	// runs at load on partial shapes (unknown dims are -1) and before
	// every call on the actual ones, so at run time it must be exact and
	// should not allocate.
	Infer(c *model.InferCtx) error
	// Run computes the outputs. The inputs are read-only views of the
	// model's values (an absent optional input has DType
	// payload.Undefined); each output has the element type and shape
	// Infer set and its Data sized to fit, to be filled in. The views
	// are valid during the call only; payload.Typed gives typed slices
	// of them without copying. An error fails the call: it should wrap
	// compute.ErrExecutionFailed or compute.ErrShapeMismatch.
	Run(in, out []payload.Dynamic) error
}

var (
	customMu sync.RWMutex
	customs  = map[[2]string]*CustomOp{}
)

// RegisterCustomOp makes op runnable on the CPU backend and describes it
// to package model, so that inference, LoadModel, Check and `lintel
// inspect` know it. Register custom ops before loading the models that
// use them, for example from init. It returns an error wrapping
// compute.ErrInvalidArtifact when op is incomplete, names ONNX's domain,
// or is registered already.
func RegisterCustomOp(op CustomOp) error {
	if op.Domain == "" || op.Domain == "ai.onnx" {
		return errs.New(errs.InvalidArtifact, "cpu: custom op %s: a custom op needs a domain of its own, not ONNX's", op.Type)
	}
	if op.Type == "" || op.New == nil || op.MinInputs < 0 || op.MaxInputs < op.MinInputs || op.Outputs < 1 {
		return errs.New(errs.InvalidArtifact, "cpu: custom op %s.%s: Type, New, 0 ≤ MinInputs ≤ MaxInputs and Outputs ≥ 1 are required", op.Domain, op.Type)
	}
	newKernel := op.New
	desc := &model.Op{
		Domain:   op.Domain,
		Type:     op.Type,
		Versions: []model.Version{{Since: 1, MinIn: op.MinInputs, MaxIn: op.MaxInputs, MaxOut: op.Outputs}},
		Bind: func(n *model.Node, _ int64) (model.Rule, error) {
			k, err := newKernel(n)
			if err != nil {
				return nil, err
			}
			if k == nil {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): the custom op returned no kernel", n.Label(), n.OpType)
			}
			return k, nil
		},
		NoFold: true,
	}
	customMu.Lock()
	defer customMu.Unlock()
	k := [2]string{op.Domain, op.Type}
	if _, dup := customs[k]; dup {
		return errs.New(errs.InvalidArtifact, "cpu: custom op %s.%s is registered already", op.Domain, op.Type)
	}
	if err := model.AddOp(desc); err != nil {
		return err
	}
	c := op
	customs[k] = &c
	return nil
}

// customOf returns the custom op a node of another domain names, or nil.
func customOf(n *model.Node) *CustomOp {
	customMu.RLock()
	defer customMu.RUnlock()
	return customs[[2]string{n.Domain, n.OpType}]
}

// customKernel runs a CustomKernel, handing it views of its tensors.
type customKernel struct {
	k       CustomKernel
	in, out []payload.Dynamic
}

func buildCustom(c *buildCtx) (kernel, error) {
	k, ok := c.rule.(CustomKernel)
	if !ok {
		return nil, c.unsupported("the op is not a custom op of the cpu backend")
	}
	return &customKernel{k: k, in: make([]payload.Dynamic, len(c.n.Inputs)), out: make([]payload.Dynamic, len(c.n.Outputs))}, nil
}

func (k *customKernel) run(in, out []*tensor) error {
	for i := range k.in {
		t := optIn(in, i)
		if t == nil {
			k.in[i] = payload.Dynamic{}
			continue
		}
		k.in[i] = payload.Dynamic{DType: t.dt, Shape: t.shape, Data: t.data, Place: memclass.Host}
	}
	for j, t := range out {
		k.out[j] = payload.Dynamic{DType: t.dt, Shape: t.shape, Data: t.data, Place: memclass.Host}
	}
	return k.k.Run(k.in, k.out)
}
