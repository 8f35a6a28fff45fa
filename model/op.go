package model

import (
	"sort"
	"sync"

	"github.com/lintel-ml/lintel/internal/errs"
)

// Op describes one op type of one domain: everything about it that does
// not depend on a backend. Each op has one descriptor, in a file of its
// own (op_<name>.go), registered from init with RegisterOp. Backends bring
// kernels only: they take a node's parsed attributes and its shape rule
// from the descriptor (BindNode) instead of reading them again.
type Op struct {
	// Domain is "" for the default ONNX domain.
	Domain string
	Type   string
	// Versions lists the opsets at which the op was introduced or changed
	// its inputs, ascending by Since. A node at an opset before the first
	// is refused with errs.Unsupported.
	Versions []Version
	// InputNames are the spec's input names, for messages.
	InputNames []string
	// Bind parses and validates a node's attributes, with the defaults of
	// its opset, and returns the node's Rule. Malformed attributes are
	// errs.InvalidArtifact errors; values the op defines but lintel does
	// not implement are errs.Unsupported.
	Bind func(n *Node, opset int64) (Rule, error)
	// NoFold marks ops that constant folding must never evaluate, such as
	// the random ops.
	NoFold bool
}

// Many as Version.MaxIn marks a variadic op: every input it is given
// must be present.
const Many = -1

// Version is an op's arity from one opset on.
type Version struct {
	// Since is the first opset of this version.
	Since int64
	// MinIn leading inputs are required; at most MaxIn are allowed (Many:
	// any number, none of them absent).
	MinIn, MaxIn int
	// MaxOut bounds the outputs. A node may name fewer, or none: a rule
	// sets outputs the node leaves out on a sink (InferCtx.Out).
	MaxOut int
	// Values lists the inputs whose contents, not only their shapes, the
	// shape rule reads (Reshape's shape, Slice's starts...). A backend
	// must have them on the host before it computes output shapes.
	Values []int
}

// Rule is one node's type and shape rule, with its attributes parsed.
// The same rule runs at load on partial shapes (unknown dims are -1,
// unknown values absent) and, in the backends, at run time on the actual
// shapes and values. Infer must not allocate when every input is known
// and its outputs have been sized before (InferCtx.OutDims reuses its
// buffers), and must refuse bad shapes with InferCtx.Errorf.
type Rule interface {
	Infer(c *InferCtx) error
}

// opKey identifies an op type in a domain.
type opKey struct{ domain, op string }

var (
	opsMu sync.RWMutex
	ops   = map[opKey]*Op{}
)

// RegisterOp adds an op descriptor. It panics when the op is registered
// twice or the descriptor is incomplete: both are programming errors,
// found by any test. Ops of other domains than ONNX's are registered with
// AddOp, which returns an error instead.
func RegisterOp(op *Op) {
	if err := AddOp(op); err != nil {
		panic(err.Error())
	}
}

// AddOp adds an op descriptor, such as one for an op of a service's own
// domain, and returns an errs.InvalidArtifact error when it is
// incomplete, its versions are out of order, or its op is described
// already. Add ops before loading the models that use them; it is safe
// to call concurrently with loading.
func AddOp(op *Op) error {
	if op == nil || op.Type == "" || op.Bind == nil || len(op.Versions) == 0 {
		name := "<nil>"
		if op != nil {
			name = op.Domain + "." + op.Type
		}
		return errs.New(errs.InvalidArtifact, "model: incomplete op descriptor: %s", name)
	}
	for i := 1; i < len(op.Versions); i++ {
		if op.Versions[i].Since <= op.Versions[i-1].Since {
			return errs.New(errs.InvalidArtifact, "model: versions out of order: %s.%s", op.Domain, op.Type)
		}
	}
	k := opKey{normDomain(op.Domain), op.Type}
	opsMu.Lock()
	defer opsMu.Unlock()
	if _, dup := ops[k]; dup {
		return errs.New(errs.InvalidArtifact, "model: op registered twice: %s.%s", op.Domain, op.Type)
	}
	ops[k] = op
	return nil
}

func normDomain(d string) string {
	if d == "ai.onnx" {
		return ""
	}
	return d
}

// LookupOp returns the descriptor of an op type in a domain ("" or
// "ai.onnx" for the default one), or nil.
func LookupOp(domain, opType string) *Op {
	opsMu.RLock()
	defer opsMu.RUnlock()
	return ops[opKey{normDomain(domain), opType}]
}

// Ops returns every registered descriptor, sorted by domain and type.
func Ops() []*Op {
	opsMu.RLock()
	out := make([]*Op, 0, len(ops))
	for _, op := range ops {
		out = append(out, op)
	}
	opsMu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Domain != out[j].Domain {
			return out[i].Domain < out[j].Domain
		}
		return out[i].Type < out[j].Type
	})
	return out
}

// At returns the version of the op in force at opset, or nil when the op
// did not exist yet.
func (op *Op) At(opset int64) *Version {
	var v *Version
	for i := range op.Versions {
		if op.Versions[i].Since <= opset {
			v = &op.Versions[i]
		}
	}
	return v
}

// checkArity refuses a node that leaves out a required input, gives more
// inputs or outputs than the op has, or leaves a variadic input empty.
func (op *Op) checkArity(n *Node, v *Version) error {
	if v.MaxIn == Many {
		if len(n.Inputs) == 0 {
			return errs.New(errs.InvalidArtifact, "node %q (%s): no inputs", n.Label(), n.OpType)
		}
		if len(n.Inputs) < v.MinIn {
			return errs.New(errs.InvalidArtifact, "node %q (%s): %d inputs, want at least %d", n.Label(), n.OpType, len(n.Inputs), v.MinIn)
		}
		for i, in := range n.Inputs {
			if in == "" {
				return errs.New(errs.InvalidArtifact, "node %q (%s): input %d is empty", n.Label(), n.OpType, i)
			}
		}
	} else {
		for i := range v.MinIn {
			if n.Input(i) == "" {
				name := ""
				if i < len(op.InputNames) {
					name = " (" + op.InputNames[i] + ")"
				}
				return errs.New(errs.InvalidArtifact, "node %q (%s): required input %d%s is missing", n.Label(), n.OpType, i, name)
			}
		}
		if k := n.NumInputs(); k > v.MaxIn {
			return errs.New(errs.InvalidArtifact, "node %q (%s): %d inputs, the op takes at most %d", n.Label(), n.OpType, k, v.MaxIn)
		}
	}
	k := len(n.Outputs)
	for k > 0 && n.Outputs[k-1] == "" {
		k--
	}
	if k > v.MaxOut {
		return errs.New(errs.InvalidArtifact, "node %q (%s): %d outputs, the op has at most %d", n.Label(), n.OpType, k, v.MaxOut)
	}
	return nil
}

// OpsetOf returns the opset g imports for domain ("" or "ai.onnx" for the
// default one; 21 when a graph gives none), the version BindNode takes
// for a node of that domain.
func OpsetOf(g *Graph, domain string) int64 {
	if isDefaultDomain(domain) {
		if g.Opset > 0 {
			return g.Opset
		}
		return 21
	}
	if v := g.Opsets[domain]; v > 0 {
		return v
	}
	return 1
}

// BindNode finds n's descriptor, checks its arity at opset (its domain's
// version, see OpsetOf) and parses its attributes. It returns a nil Rule
// and nil error for an op no descriptor describes, and an errs.Unsupported
// error for an op used at an opset before it existed, which no version of
// lintel's runs.
func BindNode(n *Node, opset int64) (*Op, Rule, error) {
	op := LookupOp(n.Domain, n.OpType)
	if op == nil {
		return nil, nil, nil
	}
	v := op.At(opset)
	if v == nil {
		return nil, nil, errs.New(errs.Unsupported, "node %q (%s): the op does not exist at opset %d (it was added at %d)", n.Label(), n.OpType, opset, op.Versions[0].Since)
	}
	if err := op.checkArity(n, v); err != nil {
		return nil, nil, err
	}
	r, err := op.Bind(n, opset)
	if err != nil {
		return nil, nil, err
	}
	return op, r, nil
}

// attrMissing refuses a node that lacks a required attribute.
func attrMissing(n *Node, name string) error {
	return errs.New(errs.InvalidArtifact, "node %q (%s): the %s attribute is missing", n.Label(), n.OpType, name)
}
