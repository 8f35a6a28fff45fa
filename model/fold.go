package model

import (
	"errors"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// Evaluator computes a node on constant inputs; backends supply it (absent
// optional inputs are nil). outTypes are the inferred output element types.
type Evaluator func(n *Node, opset int64, inputs []*Tensor, outTypes []payload.DType) ([]*Tensor, error)

// maxFoldElems bounds the size of a folded result.
const maxFoldElems = 1 << 20

// Fold replaces with constants (g.Initializers) every node it can: Constant
// nodes; Shape and Size of values whose shape is statically known; any
// deterministic node whose inputs are all constants, computed by eval (skip
// folding when the result would exceed 1<<20 elements or eval fails with
// errs.Unsupported — leave the node for the backend to report; other eval
// errors are returned). Repeats with InferTypes to a fixpoint, so chains
// like Shape -> Gather -> Unsqueeze -> Concat -> Reshape and Shape -> Slice
// -> Cast fold when the dims are known. Then removes nodes no graph output
// depends on. Only ops with a descriptor fold, and never those it marks
// NoFold (the random ops).
//
// An If whose condition is a constant is replaced by the nodes of the
// branch it takes (inlineIf).
//
// A nil eval folds only Constant, Shape, Size and Identity. g should be
// sorted (see Sort). Removing dead nodes also drops the initializers
// nothing uses any more.
func Fold(g *Graph, eval Evaluator) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	if g.Initializers == nil {
		g.Initializers = map[string]*Tensor{}
	}
	for {
		if err := InferTypes(g); err != nil {
			return err
		}
		changed, err := foldPass(g, eval)
		if err != nil {
			return err
		}
		if !changed {
			break
		}
	}
	removeDead(g)
	return nil
}

// foldPass folds what it can in one walk over the nodes; constants it
// makes are seen by the nodes after.
func foldPass(g *Graph, eval Evaluator) (bool, error) {
	kept := make([]*Node, 0, len(g.Nodes))
	changed := false
	var names map[string]bool
	for _, n := range g.Nodes {
		if n.OpType == "If" && g.Const(n.Input(0)) != nil {
			if names == nil {
				names = map[string]bool{}
				allNames(g, names, 0)
			}
			if repl, ok := inlineIf(g, n, names); ok {
				kept = append(kept, repl...)
				changed = true
				continue
			}
		}
		outs, err := foldNode(g, n, eval)
		if err != nil {
			return false, err
		}
		if outs == nil {
			kept = append(kept, n)
			continue
		}
		for i, name := range n.Outputs {
			if name == "" {
				continue
			}
			t := *outs[i]
			t.Name = name
			g.Initializers[name] = &t
		}
		changed = true
	}
	g.Nodes = kept
	return changed, nil
}

// foldNode returns n's outputs as constants, or nil when it cannot fold n.
func foldNode(g *Graph, n *Node, eval Evaluator) ([]*Tensor, error) {
	if !isDefaultDomain(n.Domain) || len(n.Outputs) == 0 || hasGraphAttr(n) {
		return nil, nil
	}
	opset := g.Opset
	if opset <= 0 {
		opset = 21
	}
	op, rule, err := BindNode(n, opset)
	if err != nil {
		return nil, err
	}
	if op == nil || op.NoFold {
		// Only described ops fold: the random ones are marked NoFold,
		// and an op no descriptor knows has no evaluator either.
		return nil, nil
	}
	switch n.OpType {
	case "Constant":
		t, err := constantTensor(n)
		if err != nil || t == nil {
			return nil, err
		}
		if err := t.Check(); err != nil {
			if errors.Is(err, errs.Unsupported) {
				return nil, nil
			}
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): value: %v", n.Label(), n.OpType, err)
		}
		return one(n, t), nil
	case "Shape":
		v := g.Values[n.Input(0)]
		if !knownShape(v) {
			break
		}
		s, e := rule.(*ShapeAttrs).Span(len(v.Shape))
		dims := make([]int64, e-s)
		for i := range dims {
			dims[i] = int64(v.Shape[s+i])
		}
		return one(n, NewTensor("", []int{len(dims)}, dims)), nil
	case "Size":
		v := g.Values[n.Input(0)]
		if !knownShape(v) {
			break
		}
		p, _, err := prodDims(v.Shape)
		if err != nil {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): %v", n.Label(), n.OpType, err)
		}
		return one(n, NewTensor("", []int{}, []int64{int64(p)})), nil
	case "Identity":
		if t := g.Const(n.Input(0)); t != nil {
			return one(n, t), nil
		}
		return nil, nil
	}
	if eval == nil || n.NumInputs() == 0 {
		return nil, nil
	}
	ins := make([]*Tensor, len(n.Inputs))
	for i, name := range n.Inputs {
		if name == "" {
			continue
		}
		if ins[i] = g.Const(name); ins[i] == nil {
			return nil, nil
		}
	}
	outTypes := make([]payload.DType, len(n.Outputs))
	for i, name := range n.Outputs {
		v := g.Values[name]
		if v == nil {
			continue
		}
		outTypes[i] = v.DType
		if knownShape(v) {
			if p, _, err := prodDims(v.Shape); err != nil || p > maxFoldElems {
				return nil, nil
			}
		}
	}
	res, err := eval(n, opset, ins, outTypes)
	if err != nil {
		if errors.Is(err, errs.Unsupported) {
			return nil, nil
		}
		var le *errs.Error
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, errs.Wrap(errs.InvalidArtifact, err, "node %q (%s): evaluating on constants", n.Label(), n.OpType)
	}
	if len(res) < len(n.Outputs) {
		return nil, errs.New(errs.ExecutionFailed, "node %q (%s): evaluator returned %d outputs, want %d", n.Label(), n.OpType, len(res), len(n.Outputs))
	}
	for i, name := range n.Outputs {
		if name == "" {
			continue
		}
		t := res[i]
		if t == nil {
			return nil, errs.New(errs.ExecutionFailed, "node %q (%s): evaluator returned no output %d", n.Label(), n.OpType, i)
		}
		if err := t.Check(); err != nil {
			return nil, errs.Wrap(errs.ExecutionFailed, err, "node %q (%s): evaluator output %d", n.Label(), n.OpType, i)
		}
		if t.NumElems() > maxFoldElems {
			return nil, nil
		}
		if outTypes[i] != payload.Undefined && t.DType != outTypes[i] {
			return nil, errs.New(errs.ExecutionFailed, "node %q (%s): evaluator output %d is %s, want %s", n.Label(), n.OpType, i, t.DType, outTypes[i])
		}
		if v := g.Values[name]; knownShape(v) && !sameDims(v.Shape, t.Shape) {
			return nil, errs.New(errs.ExecutionFailed, "node %q (%s): evaluator output %d has shape %v, want %v", n.Label(), n.OpType, i, t.Shape, v.Shape)
		}
	}
	return res[:len(n.Outputs)], nil
}

// one returns t as n's first output, the others absent.
func one(n *Node, t *Tensor) []*Tensor {
	for _, o := range n.Outputs[1:] {
		if o != "" {
			return nil
		}
	}
	out := make([]*Tensor, len(n.Outputs))
	out[0] = t
	return out
}

func hasGraphAttr(n *Node) bool {
	for _, a := range n.Attrs {
		if a.G != nil || len(a.Graphs) > 0 || a.Type == AttrGraph || a.Type == AttrGraphs {
			return true
		}
	}
	return false
}

// removeDead removes the nodes no graph output depends on, then the
// initializers and value types nothing refers to any more.
func removeDead(g *Graph) {
	producer := map[string]*Node{}
	for _, n := range g.Nodes {
		for _, o := range n.Outputs {
			if o != "" {
				producer[o] = n
			}
		}
	}
	used := map[string]bool{}
	live := map[*Node]bool{}
	var work []string
	use := func(name string) {
		if name != "" && !used[name] {
			used[name] = true
			work = append(work, name)
		}
	}
	for _, o := range g.Outputs {
		use(o.Name)
	}
	for len(work) > 0 {
		name := work[len(work)-1]
		work = work[:len(work)-1]
		n := producer[name]
		if n == nil || live[n] {
			continue
		}
		live[n] = true
		for _, in := range n.Inputs {
			use(in)
		}
		for _, in := range implicitInputs(n) {
			use(in)
		}
	}
	kept := g.Nodes[:0]
	for _, n := range g.Nodes {
		if live[n] {
			kept = append(kept, n)
			continue
		}
		for _, o := range n.Outputs {
			delete(g.Values, o)
		}
	}
	for i := len(kept); i < len(g.Nodes); i++ {
		g.Nodes[i] = nil
	}
	g.Nodes = kept
	for name := range g.Initializers {
		if !used[name] {
			delete(g.Initializers, name)
			delete(g.Values, name)
		}
	}
}
