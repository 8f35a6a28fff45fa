package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// EwProgram is a float32 elementwise program: the ops of a chain or tree
// of elementwise nodes, run per element in one pass over memory. Register
// i < Inputs holds input i (for a fusion on a Conv, Gemm or MatMul, the
// node's own result after Bias and Act); step s writes register
// Inputs+s; the last register is the result. Every step computes what
// the float32 kernel of its op computes, so a backend that runs the steps
// one after the other gives the unfused graph's results.
type EwProgram struct {
	Inputs int
	Steps  []EwStep
}

// EwStep is one operation of an EwProgram.
type EwStep struct {
	// Op is the ONNX op type the step computes: a unary op of
	// ewUnaryOps, Clip, or one of the binary Add, Sub, Mul, Div, Max, Min
	// and Pow.
	Op string
	// X is the register of the (first) operand.
	X int
	// Y is the register of a binary op's other operand, or -1 when that
	// operand is the constant K[0].
	Y int
	// ConstFirst puts a binary op's constant on the left: K[0] op X.
	ConstFirst bool
	// Tanh selects Gelu's tanh approximation.
	Tanh bool
	// K holds the step's constants: a binary op's constant operand,
	// Clip's bounds, or a unary op's Alpha and Beta (UnaryAttrs).
	K []float32
}

// EwDomain and EwOpType name the node FuseElementwise writes for a
// program that follows no Conv, Gemm or MatMul: its inputs are the
// program's inputs, its output the result, and its Fused.Prog the
// program. Files cannot define such a node: its descriptor refuses a node
// without Fused.Prog.
const (
	EwDomain = "ai.lintel.internal"
	EwOpType = "Elementwise"
)

// Bounds of a program, which keep a backend's per-block scratch small.
const (
	// EwMaxSteps bounds a program's steps.
	EwMaxSteps = 32
	// EwMaxLive bounds the registers live at once, inputs excluded.
	EwMaxLive = 6
)

// ewUnaryOps are the unary ops a program may hold; all are float32
// functions of their input and attributes alone.
var ewUnaryOps = map[string]bool{
	"Relu": true, "LeakyRelu": true, "Sigmoid": true, "Tanh": true, "Exp": true,
	"Log": true, "Abs": true, "Neg": true, "Sqrt": true, "Reciprocal": true,
	"Erf": true, "HardSigmoid": true, "HardSwish": true, "Softplus": true,
	"Softsign": true, "Elu": true, "Selu": true, "Celu": true, "Mish": true,
	"ThresholdedRelu": true, "Floor": true, "Ceil": true, "Round": true,
	"Sin": true, "Cos": true, "Gelu": true,
}

// ewBinaryOps are the binary ops a program may hold.
var ewBinaryOps = map[string]bool{"Add": true, "Sub": true, "Mul": true, "Div": true, "Max": true, "Min": true, "Pow": true}

// IsEwNode reports whether n is a node FuseElementwise wrote.
func IsEwNode(n *Node) bool { return n != nil && n.Domain == EwDomain && n.OpType == EwOpType }

// ewRegion is a set of elementwise nodes that one program replaces.
type ewRegion struct {
	nodes []*Node
	steps []EwStep
	// xs and ys name each step's operands ("" for a constant Y).
	xs, ys []string
}

// ewGrow collects, in graph order from position start, the elementwise
// float32 nodes reachable from root whose other operands are scalar
// constants (or, when extra is set, values of root's fully known shape),
// trims them to the longest prefix whose values are used by nothing
// else but the last (root included unless extra is set), and returns
// its nodes, program and input values; nil when nothing is left.
func (f *fuser) ewGrow(root string, start int, extra bool) ([]*Node, *EwProgram, []string) {
	rootVI := f.g.Values[root]
	if rootVI == nil || rootVI.DType != payload.Float32 || !rootVI.RankKnown {
		return nil, nil, nil
	}
	full := extra
	for _, d := range rootVI.Shape {
		if d < 1 {
			full = false
		}
	}
	have := map[string]bool{root: true}
	r := &ewRegion{}
	pending := len(f.users[root])
	for i := start; i < len(f.g.Nodes) && pending > 0 && len(r.nodes) < EwMaxSteps; i++ {
		n := f.g.Nodes[i]
		if n == nil || f.removed[n] || !isDefaultDomain(n.Domain) || len(n.Outputs) != 1 || n.Outputs[0] == "" || !f.isF32(n.Outputs[0]) {
			continue
		}
		touches := false
		for _, in := range n.Inputs {
			if have[in] {
				touches = true
			}
		}
		if !touches {
			continue
		}
		st, x, y, ok := f.ewStep(n, have, rootVI, full, extra)
		if !ok {
			continue
		}
		r.nodes = append(r.nodes, n)
		r.steps = append(r.steps, st)
		r.xs, r.ys = append(r.xs, x), append(r.ys, y)
		for _, in := range n.Inputs {
			if have[in] {
				pending--
			}
		}
		have[n.Outputs[0]] = true
		pending += len(f.users[n.Outputs[0]])
	}
	for k := len(r.nodes); k > 0; k-- {
		if p, ins := f.ewProgram(r, k, root, extra); p != nil {
			return r.nodes[:k], p, ins
		}
	}
	return nil, nil, nil
}

// ewProgram returns the program of r's first k steps, or nil when a
// value other than the last step's output is used outside them (or is a
// graph output), or the program needs too many live registers.
func (f *fuser) ewProgram(r *ewRegion, k int, root string, extra bool) (*EwProgram, []string) {
	in := map[*Node]bool{}
	for _, n := range r.nodes[:k] {
		in[n] = true
	}
	internal := func(v string) bool {
		for _, u := range f.users[v] {
			if u == nil || !in[u] {
				return false
			}
		}
		return true
	}
	if !extra && !internal(root) {
		return nil, nil
	}
	for _, n := range r.nodes[:k-1] {
		if !internal(n.Outputs[0]) {
			return nil, nil
		}
	}
	// Number the registers: root, the other inputs, then the steps.
	ins := []string{root}
	regs := map[string]int{root: 0}
	for s := range k {
		for _, v := range []string{r.xs[s], r.ys[s]} {
			if _, ok := regs[v]; !ok && v != "" && !f.producedBefore(r, s, v) {
				regs[v] = len(ins)
				ins = append(ins, v)
			}
		}
	}
	for s := range k {
		regs[r.nodes[s].Outputs[0]] = len(ins) + s
	}
	p := &EwProgram{Inputs: len(ins), Steps: make([]EwStep, k)}
	last := make([]int, len(ins)+k) // each register's last use
	for s := range k {
		st := r.steps[s]
		st.X = regs[r.xs[s]]
		last[st.X] = s
		if r.ys[s] != "" {
			st.Y = regs[r.ys[s]]
			last[st.Y] = s
		}
		p.Steps[s] = st
	}
	for s := range k {
		live := 1
		for reg := len(ins); reg < len(ins)+s; reg++ {
			if last[reg] >= s {
				live++
			}
		}
		if live > EwMaxLive {
			return nil, nil
		}
	}
	return p, ins
}

// fuseProg folds the elementwise program after n (a Conv, Gemm or
// MatMul, after its Bias and Act) into n.
func (f *fuser) fuseProg(n *Node, pos int) {
	nodes, p, _ := f.ewGrow(n.Outputs[0], pos+1, false)
	if p == nil {
		return
	}
	if n.Fused == nil {
		n.Fused = &Fusion{}
	}
	n.Fused.Prog = p
	for _, c := range nodes[:len(nodes)-1] {
		delete(f.g.Values, c.Outputs[0])
		f.removed[c] = true
	}
	f.absorb(n, nodes[len(nodes)-1])
}

// FuseElementwise replaces each chain or tree of two or more elementwise
// float32 nodes that FuseActivations left with one node of EwDomain's
// EwOpType that runs their program (Node.Fused.Prog): unary ops,
// Clip with constant bounds, float32 Casts to float32, and Add, Sub,
// Mul, Div, Max, Min and Pow whose other operand is a constant scalar,
// or (but for Pow) a constant or value of a rank no greater than the
// first input's that broadcasts with it, such as a per-channel scale
// (EwSpan; the node broadcasts its inputs as the unfused nodes did). Only values used
// by nothing else and not graph outputs are absorbed; the node takes the
// last one's output and the place of the last node. g must be sorted, and
// typed by InferTypes.
func FuseElementwise(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	f := newFuser(g)
	replace := map[*Node]*Node{}
	for i, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		if f.removed[n] || !isDefaultDomain(n.Domain) || n.Fused != nil || len(n.Inputs) == 0 || !f.isF32(n.Inputs[0]) {
			continue
		}
		if !ewUnaryOps[n.OpType] && !ewBinaryOps[n.OpType] && n.OpType != "Clip" {
			continue
		}
		root := n.Inputs[0]
		if f.g.Const(root) != nil && len(n.Inputs) > 1 && n.Inputs[1] != "" && f.g.Const(n.Inputs[1]) == nil {
			root = n.Inputs[1]
		}
		if f.g.Const(root) != nil {
			continue
		}
		nodes, p, ins := f.ewGrow(root, i, true)
		if len(nodes) < 2 || nodes[0] != n {
			continue
		}
		last := nodes[len(nodes)-1]
		fused := &Node{Name: last.Name, OpType: EwOpType, Domain: EwDomain, Inputs: ins,
			Outputs: []string{last.Outputs[0]}, Fused: &Fusion{Prog: p}}
		for _, c := range nodes {
			f.removed[c] = true
			if c != last {
				delete(g.Values, c.Outputs[0])
			}
		}
		replace[last] = fused
	}
	if len(f.removed) == 0 {
		return nil
	}
	f.rebuild(replace)
	return nil
}

// producedBefore reports whether v is the output of one of r's steps
// before s.
func (f *fuser) producedBefore(r *ewRegion, s int, v string) bool {
	for _, n := range r.nodes[:s] {
		if n.Outputs[0] == v {
			return true
		}
	}
	return false
}

// ewStep returns n as a step, with the names of its operands (y "" for a
// constant), or false when n cannot join a region that has the values in
// have.
func (f *fuser) ewStep(n *Node, have map[string]bool, root *ValueInfo, full, extra bool) (st EwStep, x, y string, ok bool) {
	st = EwStep{Op: n.OpType, Y: -1}
	switch {
	case ewUnaryOps[n.OpType]:
		if len(n.Inputs) != 1 {
			return st, "", "", false
		}
		_, rule, err := BindNode(n, OpsetOf(f.g, n.Domain))
		if err != nil || rule == nil {
			return st, "", "", false
		}
		switch a := rule.(type) {
		case *UnaryAttrs:
			if a.Bool {
				return st, "", "", false
			}
			st.K = []float32{a.Alpha, a.Beta}
		case *GeluAttrs:
			st.K = []float32{a.Alpha, a.Beta}
			st.Tanh = a.Tanh
		default:
			return st, "", "", false
		}
		return st, n.Inputs[0], "", true
	case n.OpType == "Clip":
		if !have[n.Inputs[0]] {
			return st, "", "", false
		}
		for _, v := range n.Inputs[1:] {
			if v != "" && !f.ewScalarOK(v, root) {
				return st, "", "", false
			}
		}
		lo, hi, ok := f.clipBounds(n)
		if !ok {
			return st, "", "", false
		}
		st.K = []float32{lo, hi}
		return st, n.Inputs[0], "", true
	case n.OpType == "Cast":
		// A float32 to float32 Cast copies.
		if len(n.Inputs) != 1 || !f.isF32(n.Inputs[0]) {
			return st, "", "", false
		}
		st.Op = "Identity"
		return st, n.Inputs[0], "", true
	case ewBinaryOps[n.OpType]:
		if len(n.Inputs) != 2 || n.Inputs[0] == "" || n.Inputs[1] == "" {
			return st, "", "", false
		}
		if f.g.Opset > 0 && f.g.Opset < 7 && n.Has("broadcast") {
			return st, "", "", false
		}
		a, b := n.Inputs[0], n.Inputs[1]
		switch {
		case have[a] && have[b]:
			return st, a, b, n.OpType != "Pow" || f.isF32(b)
		case have[a] || have[b]:
			x, other, first := a, b, false
			if have[b] {
				x, other, first = b, a, true
			}
			if v, ok := f.scalar(other); ok && f.ewScalarOK(other, root) {
				st.K, st.ConstFirst = []float32{v}, first
				return st, x, "", true
			}
			switch {
			case n.OpType == "Pow":
				return st, "", "", false
			case full && f.g.Const(other) == nil && f.sameFullShape(other, root):
			case extra && f.bcastOK(other, root):
			default:
				return st, "", "", false
			}
			if first {
				return st, other, x, true
			}
			return st, x, other, true
		}
	}
	return st, "", "", false
}

// ewScalarOK reports whether v is a constant float32 scalar whose rank
// does not exceed root's, so that broadcasting it keeps root's shape.
func (f *fuser) ewScalarOK(v string, root *ValueInfo) bool {
	t := f.g.Const(v)
	return t != nil && t.DType == payload.Float32 && t.NumElems() == 1 && len(t.Shape) <= len(root.Shape)
}

// bcastOK reports whether value v, a constant or not, is float32 of a
// known rank no greater than root's whose dims are 1 or root's where
// root's are known: an operand that a program node broadcasts to root's
// shape at run time, as the unfused node did, without growing it.
func (f *fuser) bcastOK(v string, root *ValueInfo) bool {
	var shape []int
	switch t, vi := f.g.Const(v), f.g.Values[v]; {
	case t != nil:
		if t.DType != payload.Float32 {
			return false
		}
		shape = t.Shape
	case vi != nil && vi.DType == payload.Float32 && vi.RankKnown:
		shape = vi.Shape
	default:
		return false
	}
	off := len(root.Shape) - len(shape)
	if off < 0 {
		return false
	}
	for j, d := range shape {
		r := root.Shape[off+j]
		if d != 1 && r >= 0 && d != r {
			// A clash, or root broadcast along a dim of 1: the program
			// would compute root's ops once per element of the larger
			// output.
			return false
		}
	}
	return true
}

// sameFullShape reports whether value v is float32 with root's shape,
// every dim known.
func (f *fuser) sameFullShape(v string, root *ValueInfo) bool {
	vi := f.g.Values[v]
	if vi == nil || vi.DType != payload.Float32 || !vi.RankKnown || len(vi.Shape) != len(root.Shape) {
		return false
	}
	for i, d := range vi.Shape {
		if d < 1 || d != root.Shape[i] {
			return false
		}
	}
	return true
}
