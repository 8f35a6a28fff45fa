package model

import (
	"strconv"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// WidenHalf turns a graph that computes in float16 (or in bfloat16) into
// one that computes in float32 inside, and reports whether it did. Every
// float16 value between nodes becomes float32, every float16 initializer
// is widened (exactly), the Cast nodes between float32 and float16 become
// Identity nodes and are removed, and only the graph's own float16 inputs
// and outputs keep their type: a Cast to float32 follows each such input
// and a Cast to float16 precedes each such output.
//
// A result then differs from one rounded to 16 bits at every node (ONNX
// Runtime's, for the ops it runs on float16 through float32) by the
// roundings that are no longer made: within float16's tolerance of each
// other for the ops allowed here, whose float16 form is their float32
// form rounded, and closer to the float32 model's result. One difference
// is not small: a value beyond float16's range (±65504) stays finite
// instead of becoming infinite.
//
// WidenHalf leaves g as it is and returns false when the graph has no
// float16 or bfloat16 value, mixes the two, holds a subgraph, or has a
// node that reads or writes a half value and is not on its list of ops
// (elementwise math, activations, convolutions, products, pooling,
// normalizations, reductions, Softmax, Resize, data movement, and Cast
// between the float types), or whose output types are unknown: such
// graphs run node by node, each half node through its float32 kernel. It
// runs on a sorted graph whose types are inferred (after Optimize).
func WidenHalf(g *Graph) (bool, error) {
	if g == nil {
		return false, errs.New(errs.InvalidArtifact, "nil graph")
	}
	half, ok := graphHalf(g)
	if !ok || half == payload.Undefined {
		return false, nil
	}
	isHalf := func(name string) bool {
		if name == "" {
			return false
		}
		if v := g.Values[name]; v != nil {
			return v.DType == half
		}
		if t := g.Initializers[name]; t != nil {
			return t.DType == half
		}
		return false
	}
	for _, n := range g.Nodes {
		touches := false
		for _, in := range n.Inputs {
			touches = touches || isHalf(in)
		}
		for _, o := range n.Outputs {
			touches = touches || isHalf(o)
		}
		if len(NodeSubgraphs(n)) > 0 || (touches && !widenable(g, n, half)) {
			return false, nil
		}
	}

	// Widen the initializers, then every value but the graph's inputs.
	for name, t := range g.Initializers {
		if t == nil || t.DType != half {
			continue
		}
		w, err := widenTensor(t)
		if err != nil {
			return false, err
		}
		g.Initializers[name] = w
	}
	inputs := map[string]bool{}
	for _, in := range g.Inputs {
		inputs[in.Name] = true
	}
	for name, v := range g.Values {
		if v != nil && v.DType == half && !inputs[name] {
			w := *v
			w.DType = payload.Float32
			g.Values[name] = &w
		}
	}
	fresh := func(base string) string {
		name := base + "__f32"
		for i := 0; g.Values[name] != nil || g.Initializers[name] != nil; i++ {
			name = base + "__f32_" + strconv.Itoa(i)
		}
		return name
	}
	castTo := func(to payload.DType, x, y string) *Node {
		return &Node{Name: y + "__widen_cast", OpType: "Cast", Inputs: []string{x}, Outputs: []string{y},
			Attrs: []Attr{{Name: "to", Type: AttrInt, I: int64(to)}}}
	}
	rename := map[string]string{}
	var head, tail []*Node
	for _, in := range g.Inputs {
		if in.DType != half {
			continue
		}
		w := fresh(in.Name)
		vi := in
		vi.Name, vi.DType = w, payload.Float32
		g.Values[w] = &vi
		rename[in.Name] = w
		head = append(head, castTo(payload.Float32, in.Name, w))
	}
	for _, out := range g.Outputs {
		if _, done := rename[out.Name]; done || out.DType != half || inputs[out.Name] || g.Initializers[out.Name] != nil {
			continue
		}
		w := fresh(out.Name)
		vi := out
		vi.Name, vi.DType = w, payload.Float32
		g.Values[w] = &vi
		g.Values[out.Name] = &out
		rename[out.Name] = w
		tail = append(tail, castTo(half, w, out.Name))
	}
	dtypeOf := func(name string) payload.DType {
		if v := g.Values[name]; v != nil {
			return v.DType
		}
		if t := g.Initializers[name]; t != nil {
			return t.DType
		}
		return payload.Undefined
	}
	for _, n := range g.Nodes {
		for i, in := range n.Inputs {
			if r, ok := rename[in]; ok {
				n.Inputs[i] = r
			}
		}
		for i, o := range n.Outputs {
			if r, ok := rename[o]; ok {
				n.Outputs[i] = r
			}
		}
		// A Cast between the half type and float32 now casts float32 to
		// float32.
		if n.OpType == "Cast" && isDefaultDomain(n.Domain) && len(n.Inputs) == 1 && len(n.Outputs) == 1 &&
			dtypeOf(n.Inputs[0]) == payload.Float32 && dtypeOf(n.Outputs[0]) == payload.Float32 {
			n.OpType, n.Attrs = "Identity", nil
		}
	}
	nodes := make([]*Node, 0, len(head)+len(g.Nodes)+len(tail))
	nodes = append(append(append(nodes, head...), g.Nodes...), tail...)
	g.Nodes = nodes
	if err := EliminateIdentity(g); err != nil {
		return false, err
	}
	foldOutputIdentities(g)
	return true, nil
}

// foldOutputIdentities removes each Identity that copies a value some
// node computes into a graph output, the producer writing the output
// itself (and its readers reading it there), when that value is neither
// a graph output nor a graph input itself. EliminateIdentity keeps them;
// here they are what remains of Cast nodes that widened a float16 result
// into a float32 output.
func foldOutputIdentities(g *Graph) {
	outs := map[string]bool{}
	for _, o := range g.Outputs {
		outs[o.Name] = true
	}
	producer := map[string]*Node{}
	for _, n := range g.Nodes {
		for _, o := range n.Outputs {
			if o != "" {
				producer[o] = n
			}
		}
	}
	rename := map[string]string{}
	kept := g.Nodes[:0]
	for _, n := range g.Nodes {
		if n.OpType == "Identity" && isDefaultDomain(n.Domain) && len(n.Inputs) == 1 && len(n.Outputs) == 1 {
			x, y := n.Inputs[0], n.Outputs[0]
			if p := producer[x]; p != nil && outs[y] && !outs[x] && rename[x] == "" && g.Values[y] != nil && g.Values[x] != nil &&
				g.Values[y].DType == g.Values[x].DType {
				for i, o := range p.Outputs {
					if o == x {
						p.Outputs[i] = y
					}
				}
				rename[x] = y
				delete(g.Values, x)
				continue
			}
		}
		kept = append(kept, n)
	}
	for i := len(kept); i < len(g.Nodes); i++ {
		g.Nodes[i] = nil
	}
	g.Nodes = kept
	for _, n := range g.Nodes {
		for i, in := range n.Inputs {
			if r, ok := rename[in]; ok {
				n.Inputs[i] = r
			}
		}
	}
}

// graphHalf returns the half type g's values, initializers, inputs and
// outputs hold (Undefined for none), and false when they hold both.
func graphHalf(g *Graph) (payload.DType, bool) {
	half := payload.Undefined
	ok := true
	see := func(dt payload.DType) {
		if dt != payload.Float16 && dt != payload.BF16 {
			return
		}
		if half != payload.Undefined && half != dt {
			ok = false
		}
		half = dt
	}
	for _, v := range g.Values {
		if v != nil {
			see(v.DType)
		}
	}
	for _, t := range g.Initializers {
		if t != nil {
			see(t.DType)
		}
	}
	for _, v := range g.Inputs {
		see(v.DType)
	}
	for _, v := range g.Outputs {
		see(v.DType)
	}
	return half, ok
}

// widenOps are the ops whose half form is their float32 form with the
// inputs widened and the outputs rounded (ONNX's definitions, and how
// ONNX Runtime runs them on the CPU), so that a graph of them may compute
// in float32 throughout. Ops that pick by comparing (ArgMax, TopK, the
// comparisons) are left out: a tie in float16 can break otherwise in
// float32.
var widenOps = map[string]bool{}

func init() {
	for _, op := range []string{
		// Elementwise math and activations.
		"Abs", "Acos", "Acosh", "Add", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Celu", "Clip",
		"Cos", "Cosh", "Div", "Elu", "Erf", "Exp", "Floor", "Gelu", "HardSigmoid", "HardSwish",
		"LeakyRelu", "Log", "Max", "Mean", "Min", "Mish", "Mul", "Neg", "Pow", "PRelu",
		"Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus",
		"Softsign", "Sqrt", "Sub", "Sum", "Tan", "Tanh", "ThresholdedRelu", "Where",
		// Products, convolutions, pooling, normalizations, reductions.
		"AveragePool", "BatchNormalization", "Conv", "ConvTranspose", "Gemm",
		"GlobalAveragePool", "GlobalMaxPool", "GroupNormalization", "InstanceNormalization",
		"LayerNormalization", "LogSoftmax", "LpNormalization", "MatMul", "MaxPool",
		"ReduceL1", "ReduceL2", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin",
		"ReduceProd", "ReduceSum", "ReduceSumSquare", "Resize", "Softmax", "Upsample",
		// Data movement and shapes.
		"Concat", "DepthToSpace", "Expand", "Flatten", "Gather", "GatherElements", "GatherND",
		"Identity", "Pad", "Reshape", "Shape", "Size", "Slice", "SpaceToDepth", "Split",
		"Squeeze", "Tile", "Transpose", "Unsqueeze",
	} {
		widenOps[op] = true
	}
}

// widenable reports whether n, which reads or writes a value of the half
// type half, may compute in float32: an op of widenOps, or a Cast between
// half and float32 (or to the same type), with every output's type known.
func widenable(g *Graph, n *Node, half payload.DType) bool {
	if !isDefaultDomain(n.Domain) {
		return false
	}
	for _, o := range n.Outputs {
		if o == "" {
			continue
		}
		if v := g.Values[o]; v == nil || !v.DType.Valid() {
			return false
		}
	}
	if n.OpType != "Cast" {
		return widenOps[n.OpType]
	}
	if len(n.Inputs) != 1 || len(n.Outputs) != 1 {
		return false
	}
	from := payload.Undefined
	if v := g.Values[n.Inputs[0]]; v != nil {
		from = v.DType
	} else if t := g.Initializers[n.Inputs[0]]; t != nil {
		from = t.DType
	}
	to := g.Values[n.Outputs[0]].DType
	return (from == half || from == payload.Float32) && (to == half || to == payload.Float32)
}

// widenTensor returns a float32 copy of the float16 or bfloat16 tensor t.
func widenTensor(t *Tensor) (*Tensor, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	n := t.NumElems()
	out := make([]float32, n)
	for i := range out {
		h := uint16(t.Raw[2*i]) | uint16(t.Raw[2*i+1])<<8
		if t.DType == payload.BF16 {
			out[i] = payload.BFloat16(h).Float32()
		} else {
			out[i] = float16.Frombits(h).Float32()
		}
	}
	return NewTensor(t.Name, t.Shape, out), nil
}
