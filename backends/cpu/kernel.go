package cpu

import (
	"context"
	"sort"

	"github.com/lintel-ml/lintel/compute"
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// kernel runs one node. The executor first sets every output's shape
// with the op's rule from its model.Op descriptor (and the kernel's
// shaper, if it has one), sizes every output's data to numel*size bytes,
// then calls run. Neither may allocate in steady state: scratch lives in
// the kernel and grows only when too small.
type kernel interface {
	// run computes the outputs. Absent optional inputs are nil.
	run(in, out []*tensor) error
}

// shaper is implemented by kernels that need a look at the shapes before
// run: to plan from them, to refuse shapes the kernel does not handle, or
// to fill in output dims that depend on the input's contents (NonZero),
// which the rule leaves at -1. It runs after the rule has set out[i].shape
// (and out[i].dt, set at load), and reports bad shapes with
// errs.ShapeMismatch. An op with no descriptor in package model relies on
// it alone.
type shaper interface {
	shape(in, out []*tensor) error
}

// aliaser is implemented by kernels whose single output is a view of one
// input's bytes (Reshape, Squeeze, Identity...): the executor points the
// output at that input's data and never calls run.
type aliaser interface {
	aliasInput() int
}

// selfShaper is implemented by kernels whose shape method sets every
// output's shape on its own, without the op's rule: the control-flow ops,
// whose output shapes are those their subgraphs give.
type selfShaper interface {
	shaper
	selfShaped()
}

// capturer is implemented by kernels that run subgraphs: captures names
// the values of the node's graph that the subgraphs use, which the
// executor passes to run and shape after the node's own inputs.
type capturer interface {
	captures() []string
}

// watcher is implemented by kernels that run subgraphs: before each
// call of the node the executor hands them its call's context (nil done
// for none), which their subgraphs' executors check between nodes.
type watcher interface {
	watch(done <-chan struct{}, ctx context.Context)
}

// buildCtx is what a kernel builder sees at load time.
type buildCtx struct {
	g    *model.Graph
	n    *model.Node
	opts compute.Options
	// opset is the default-domain opset version.
	opset int64
	// in and out are the static types of the node's inputs and outputs;
	// an absent optional input has DType payload.Undefined and Shape nil.
	in  []model.ValueInfo
	out []model.ValueInfo
	// gemm is the model's shared SGEMM context; gemmCtx makes one when
	// the caller left it nil.
	gemm *gemmCtx
	// share is where builders keep read-only data that every instance of
	// the artifact on this backend shares (see shareValue); nil outside
	// LoadModel.
	share *shared
	// op and rule are the node's descriptor and its bound rule, whose
	// concrete type holds the parsed attributes (model.ReshapeAttrs...);
	// both nil for an op package model does not describe.
	op   *model.Op
	rule model.Rule
}

// gemmCtx returns the model's SGEMM context.
func (c *buildCtx) gemmCtx() *gemmCtx {
	if c.gemm == nil {
		c.gemm = newGemmCtx(nil)
	}
	return c.gemm
}

// builder checks a node's attributes and types and returns its kernel. It
// reports anything the backend lacks with errs.Unsupported via c.unsupported.
type builder func(c *buildCtx) (kernel, error)

var registry = map[string]builder{}

// register adds op's builder; each kernel file calls it from init.
func register(op string, b builder) {
	if _, dup := registry[op]; dup {
		panic("cpu: op registered twice: " + op)
	}
	registry[op] = b
}

// SupportedOps returns the default-domain op types the CPU backend runs,
// sorted.
func SupportedOps() []string {
	ops := make([]string, 0, len(registry))
	for op := range registry {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// constInput returns input i's constant tensor, or nil if it is not a
// constant (or absent).
func (c *buildCtx) constInput(i int) *model.Tensor { return c.g.Const(c.n.Input(i)) }

// inType returns input i's element type, payload.Undefined when absent.
func (c *buildCtx) inType(i int) payload.DType {
	if i < len(c.in) {
		return c.in[i].DType
	}
	return payload.Undefined
}

// unsupported returns an ErrUnsupported error naming the node and op.
func (c *buildCtx) unsupported(format string, args ...any) error {
	return errs.New(errs.Unsupported, "node %q (%s): %s", c.n.Label(), c.n.OpType, sprintf(format, args...))
}

// invalid returns an ErrInvalidArtifact error naming the node and op.
func (c *buildCtx) invalid(format string, args ...any) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): %s", c.n.Label(), c.n.OpType, sprintf(format, args...))
}

// needTypes refuses the node unless input 0's element type is one of dts.
func (c *buildCtx) needTypes(dts ...payload.DType) error {
	t := c.inType(0)
	for _, d := range dts {
		if t == d {
			return nil
		}
	}
	return c.unsupported("element type %s (supported: %v)", t, dts)
}

// shapeErr returns an ErrShapeMismatch error for a node at run time. It
// is only called on failure paths, so it may allocate.
func shapeErr(n *model.Node, format string, args ...any) error {
	return errs.New(errs.ShapeMismatch, "node %q (%s): %s", n.Label(), n.OpType, sprintf(format, args...))
}
