package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// The activations FuseActivations folds into the node before them.
const (
	// ActRelu is max(x, 0) (NaN gives 0, as Relu's loop).
	ActRelu = "Relu"
	// ActClip is min(max(x, Params[0]), Params[1]).
	ActClip = "Clip"
	// ActHardSigmoid is max(0, min(1, Params[0]*x + Params[1])).
	ActHardSigmoid = "HardSigmoid"
	// ActHardSwish is ONNX's HardSwish, x * max(0, min(1, x/6 + 0.5)).
	ActHardSwish = "HardSwish"
	// ActHardSwishDiv6 is the HardSwish that exporters write as
	// Add(x, 3), Clip(0, 6), Mul(x, ·), Div(·, 6), in that order of
	// roundings: (x * min(max(x+3, 0), 6)) / 6.
	ActHardSwishDiv6 = "HardSwishDiv6"
	// ActSigmoid is 1 / (1 + e^-x).
	ActSigmoid = "Sigmoid"
	// ActTanh is tanh(x).
	ActTanh = "Tanh"
)

// Fusion is what FuseActivations folded into a node: backends that run
// the node apply it to each output element after the node's own result,
// in this order: Bias, then Act.
type Fusion struct {
	// Bias is set on a MatMul whose following Add of a constant vector
	// was folded in: the node's third input is that vector, N long,
	// added to every row of the product.
	Bias bool
	// Act is the activation, "" for none; Params are its constants.
	Act    string
	Params []float32
	// Prog is the elementwise program run after Act, nil for none. On a
	// Conv, Gemm or MatMul it has one input, the node's result; on a node
	// of EwDomain it is the node's computation.
	Prog *EwProgram
}

// FuseActivations folds, for float32 values, the elementwise tail of a
// Conv, Gemm or MatMul into it: an Add of a constant vector along the
// last dim after a MatMul whose B is a constant matrix (as Fusion.Bias),
// then one activation (Relu, Clip with constant bounds, HardSigmoid,
// HardSwish, Sigmoid, Tanh, or the Add/Clip/Mul/Div spelling of
// HardSwish), then any chain or tree of elementwise ops on the result
// with scalar constants as Fusion.Prog (see FuseElementwise); or, after a
// MatMul, ONNX Runtime's Gelu, BiasGelu or FastGelu (fuseMSGelu). A node
// is folded only when its input is used by nothing
// else and is no graph output; the fused node takes the name of the last
// folded output. g must be sorted, and typed by InferTypes.
func FuseActivations(g *Graph) error {
	if g == nil {
		return errs.New(errs.InvalidArtifact, "nil graph")
	}
	f := newFuser(g)
	for i, n := range g.Nodes {
		if n == nil {
			return errs.New(errs.InvalidArtifact, "nil node")
		}
		if f.removed[n] || !isDefaultDomain(n.Domain) || n.Fused != nil || len(n.Outputs) != 1 || !f.isF32(n.Outputs[0]) {
			continue
		}
		switch n.OpType {
		case "Conv", "Gemm":
		case "MatMul":
			f.fuseBias(n)
			if f.fuseMSGelu(n) {
				continue
			}
		default:
			continue
		}
		f.fuseAct(n)
		f.fuseProg(n, i)
	}
	if len(f.removed) == 0 {
		return nil
	}
	f.rebuild(nil)
	return nil
}

// rebuild drops the removed nodes from the graph's list, puts each
// replaced node's replacement (replace may be nil) in its place, and
// clears the list's tail.
func (f *fuser) rebuild(replace map[*Node]*Node) {
	g := f.g
	kept := g.Nodes[:0]
	for _, n := range g.Nodes {
		if r := replace[n]; r != nil {
			kept = append(kept, r)
		} else if !f.removed[n] {
			kept = append(kept, n)
		}
	}
	for i := len(kept); i < len(g.Nodes); i++ {
		g.Nodes[i] = nil
	}
	g.Nodes = kept
}

// fuser holds FuseActivations' view of the graph.
type fuser struct {
	g *Graph
	// users lists each value's consumers, once per input slot; graph
	// outputs and subgraph uses count as a nil user.
	users   map[string][]*Node
	removed map[*Node]bool
}

func newFuser(g *Graph) *fuser {
	f := &fuser{g: g, users: map[string][]*Node{}, removed: map[*Node]bool{}}
	for _, n := range g.Nodes {
		if n == nil {
			continue
		}
		for _, in := range n.Inputs {
			if in != "" {
				f.users[in] = append(f.users[in], n)
			}
		}
		for _, in := range implicitInputs(n) {
			f.users[in] = append(f.users[in], nil)
		}
	}
	for _, o := range g.Outputs {
		f.users[o.Name] = append(f.users[o.Name], nil)
	}
	return f
}

// isF32 reports whether value v is known to be float32.
func (f *fuser) isF32(v string) bool {
	vi := f.g.Values[v]
	return vi != nil && vi.DType == payload.Float32
}

// only returns v's single consumer, a default-domain node with one
// output, or nil.
func (f *fuser) only(v string) *Node {
	us := f.users[v]
	if len(us) != 1 || us[0] == nil || f.removed[us[0]] || !isDefaultDomain(us[0].Domain) || len(us[0].Outputs) != 1 || us[0].Outputs[0] == "" {
		return nil
	}
	return us[0]
}

// absorb makes n produce next's output, removing next.
func (f *fuser) absorb(n, next *Node) {
	delete(f.g.Values, n.Outputs[0])
	n.Outputs[0] = next.Outputs[0]
	f.removed[next] = true
}

// fuseBias folds MatMul n's following Add of a constant float32 vector
// along the last dim, when B is a constant matrix.
func (f *fuser) fuseBias(n *Node) {
	if len(n.Inputs) != 2 {
		return
	}
	if w := f.g.Const(n.Inputs[1]); w == nil || len(w.Shape) != 2 || w.DType != payload.Float32 {
		return
	}
	out := f.g.Values[n.Outputs[0]]
	if out == nil || !out.RankKnown || len(out.Shape) < 2 || out.Shape[len(out.Shape)-1] < 1 {
		return
	}
	cols := out.Shape[len(out.Shape)-1]
	add := f.only(n.Outputs[0])
	if add == nil || add.OpType != "Add" || len(add.Inputs) != 2 {
		return
	}
	if f.g.Opset > 0 && f.g.Opset < 7 && add.Has("broadcast") {
		return // legacy broadcasting may align the bias with another axis
	}
	other := add.Inputs[1]
	if add.Inputs[1] == n.Outputs[0] {
		other = add.Inputs[0]
	}
	b := f.g.Const(other)
	if b == nil || b.DType != payload.Float32 || b.NumElems() != cols || len(b.Shape) == 0 || len(b.Shape) > len(out.Shape) || b.Shape[len(b.Shape)-1] != cols {
		return
	}
	if _, err := View[float32](b); err != nil {
		return
	}
	n.Inputs = append(n.Inputs, other)
	n.Fused = &Fusion{Bias: true}
	f.absorb(n, add)
}

// fuseAct folds the activation after n, if any.
func (f *fuser) fuseAct(n *Node) {
	x := n.Outputs[0]
	next := f.only(x)
	var act string
	var params []float32
	var chain []*Node // the nodes folded, the last one's output kept
	switch {
	case next != nil && next.OpType == "Relu":
		act = ActRelu
	case next != nil && next.OpType == "Clip":
		lo, hi, ok := f.clipBounds(next)
		if !ok {
			return
		}
		act, params = ActClip, []float32{lo, hi}
	case next != nil && next.OpType == "HardSigmoid":
		a, err := next.Float("alpha", 0.2)
		if err != nil {
			return
		}
		b, err := next.Float("beta", 0.5)
		if err != nil {
			return
		}
		act, params = ActHardSigmoid, []float32{a, b}
	case next != nil && next.OpType == "HardSwish":
		act = ActHardSwish
	case next != nil && next.OpType == "Sigmoid":
		act = ActSigmoid
	case next != nil && next.OpType == "Tanh":
		act = ActTanh
	default:
		if chain = f.hardSwishDiv6(x); chain == nil {
			return
		}
		act = ActHardSwishDiv6
	}
	if chain == nil {
		chain = []*Node{next}
	}
	for _, c := range chain {
		if !f.isF32(c.Outputs[0]) {
			return
		}
	}
	if n.Fused == nil {
		n.Fused = &Fusion{}
	}
	n.Fused.Act, n.Fused.Params = act, params
	last := chain[len(chain)-1]
	for _, c := range chain[:len(chain)-1] {
		delete(f.g.Values, c.Outputs[0])
		f.removed[c] = true
	}
	f.absorb(n, last)
}

// clipBounds returns Clip c's bounds when they are constants: attributes
// before opset 11, inputs 1 and 2 from then on.
func (f *fuser) clipBounds(c *Node) (lo, hi float32, ok bool) {
	if f.g.Opset < 11 {
		if c.NumInputs() != 1 {
			return 0, 0, false
		}
		a, err := c.Float("min", -maxFloat32)
		if err != nil {
			return 0, 0, false
		}
		b, err := c.Float("max", maxFloat32)
		if err != nil {
			return 0, 0, false
		}
		return a, b, true
	}
	lo, hi = -maxFloat32, maxFloat32
	for i, p := range []*float32{&lo, &hi} {
		name := c.Input(i + 1)
		if name == "" {
			continue
		}
		v, ok := f.scalar(name)
		if !ok {
			return 0, 0, false
		}
		*p = v
	}
	return lo, hi, true
}

// maxFloat32 is the largest finite float32, Clip's default bound.
const maxFloat32 = 3.40282346638528859811704183484516925440e+38

// scalar returns the constant float32 one-element tensor named name.
func (f *fuser) scalar(name string) (float32, bool) {
	t := f.g.Const(name)
	if t == nil || t.DType != payload.Float32 || t.NumElems() != 1 {
		return 0, false
	}
	v, err := View[float32](t)
	if err != nil {
		return 0, false
	}
	return v[0], true
}

// hardSwishDiv6 matches Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6)
// on x, x used by the Add and the Mul only, and returns the four nodes
// in that order, or nil.
func (f *fuser) hardSwishDiv6(x string) []*Node {
	us := f.users[x]
	if len(us) != 2 || us[0] == nil || us[1] == nil {
		return nil
	}
	add, mul := us[0], us[1]
	if add.OpType != "Add" {
		add, mul = mul, add
	}
	for _, n := range []*Node{add, mul} {
		if !isDefaultDomain(n.Domain) || f.removed[n] || len(n.Inputs) != 2 || len(n.Outputs) != 1 || n.Outputs[0] == "" {
			return nil
		}
	}
	if add.OpType != "Add" || mul.OpType != "Mul" {
		return nil
	}
	if v, ok := f.scalar(otherInput(add, x)); !ok || v != 3 {
		return nil
	}
	clip := f.only(add.Outputs[0])
	if clip == nil || clip.OpType != "Clip" || otherInput(mul, clip.Outputs[0]) != x {
		return nil
	}
	if lo, hi, ok := f.clipBounds(clip); !ok || lo != 0 || hi != 6 {
		return nil
	}
	div := f.only(mul.Outputs[0])
	if div == nil || div.OpType != "Div" || len(div.Inputs) != 2 || div.Inputs[0] != mul.Outputs[0] {
		return nil
	}
	if v, ok := f.scalar(div.Inputs[1]); !ok || v != 6 {
		return nil
	}
	return []*Node{add, clip, mul, div}
}

// otherInput returns the input of two-input n that is not x ("" when
// both are x or neither is).
func otherInput(n *Node, x string) string {
	switch {
	case n.Inputs[0] == x && n.Inputs[1] != x:
		return n.Inputs[1]
	case n.Inputs[1] == x && n.Inputs[0] != x:
		return n.Inputs[0]
	}
	return ""
}
