package quantize

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

// sameForInference lists default-domain ops whose form (inputs and
// attributes) and meaning at inference are the same from opset 7 up to
// 13, so raising the opset leaves their nodes as they are.
var sameForInference = map[string]bool{
	"Abs": true, "Acos": true, "Acosh": true, "Add": true, "And": true, "ArgMax": true, "ArgMin": true,
	"Asin": true, "Asinh": true, "Atan": true, "Atanh": true, "AveragePool": true,
	"BatchNormalization": true, "Cast": true, "Ceil": true, "Concat": true, "Constant": true,
	"ConstantOfShape": true, "Conv": true, "ConvTranspose": true, "Cos": true, "Cosh": true,
	"DepthToSpace": true, "Div": true, "Elu": true, "Equal": true, "Erf": true, "Exp": true,
	"Expand": true, "Flatten": true, "Floor": true, "Gather": true, "Gemm": true,
	"GlobalAveragePool": true, "GlobalLpPool": true, "GlobalMaxPool": true, "Greater": true,
	"HardSigmoid": true, "Identity": true, "InstanceNormalization": true, "IsNaN": true,
	"LRN": true, "LeakyRelu": true, "Less": true, "Log": true, "LpNormalization": true,
	"MatMul": true, "Max": true, "MaxPool": true, "Mean": true, "Min": true, "Mul": true,
	"Neg": true, "NonZero": true, "Not": true, "Or": true, "PRelu": true, "Pow": true,
	"Reciprocal": true, "ReduceL1": true, "ReduceL2": true, "ReduceLogSum": true,
	"ReduceLogSumExp": true, "ReduceMax": true, "ReduceMean": true, "ReduceMin": true,
	"ReduceProd": true, "ReduceSumSquare": true, "Relu": true, "Reshape": true, "Selu": true,
	"Shape": true, "Shrink": true, "Sigmoid": true, "Sign": true, "Sin": true, "Sinh": true,
	"Size": true, "Softplus": true, "Softsign": true, "SpaceToDepth": true, "Sqrt": true,
	"Sub": true, "Sum": true, "Tan": true, "Tanh": true, "ThresholdedRelu": true, "Tile": true,
	"Transpose": true, "Where": true, "Xor": true, "Mod": true, "Range": true,
	"MatMulInteger": true, "ConvInteger": true, "QuantizeLinear": true, "DequantizeLinear": true,
	"QLinearConv": true, "QLinearMatMul": true, "DynamicQuantizeLinear": true,
	"GatherElements": true, "GatherND": true, "CumSum": true, "Round": true, "Einsum": true,
	"Celu": true, "NegativeLogLikelihoodLoss": false,
}

// raiseOpset raises the default-domain opset to v (at most 13),
// rewriting the nodes whose form changed on the way: Slice's and Clip's
// attributes become inputs (10, 11), Dropout loses its ratio attribute
// (12), and from 13 Softmax, LogSoftmax and Hardmax take a single axis
// (kept when it is the last), Squeeze, Unsqueeze, ReduceSum and Split
// take axes and splits as inputs. Nodes of other ops are refused with
// errs.Unsupported unless listed as unchanged.
func (e *editor) raiseOpset(v int64) error {
	from := e.opset
	if from < 7 && from != 0 {
		return errs.New(errs.Unsupported, "quantize: cannot raise opset %d to %d: only opsets from 7 are converted", from, v)
	}
	if e.subgraphs && from != 0 {
		return errs.New(errs.Unsupported, "quantize: cannot raise opset %d to %d in a model with subgraphs", from, v)
	}
	for _, n := range e.nodes {
		if n.dom != "" || from == 0 {
			continue
		}
		if err := e.upgrade(n, from, v); err != nil {
			return err
		}
	}
	e.opset = v
	return nil
}

func (e *editor) upgrade(n *node, from, to int64) error {
	bad := func(why string) error {
		return errs.New(errs.Unsupported, "quantize: cannot raise opset %d to %d: node %s (%s) %s", from, to, n.name, n.op, why)
	}
	ints := func(base string, v []int64) string {
		return initOf(e, base, []int64{int64(len(v))}, v)
	}
	switch n.op {
	case "Slice":
		if from >= 10 {
			return nil
		}
		st, en := n.attr("starts"), n.attr("ends")
		if st == nil || en == nil {
			return bad("lacks starts or ends")
		}
		n.inputs = append(n.inputs[:1], ints(n.outputs[0]+"_starts", st.ints), ints(n.outputs[0]+"_ends", en.ints))
		if ax := n.attr("axes"); ax != nil {
			n.inputs = append(n.inputs, ints(n.outputs[0]+"_axes", ax.ints))
		}
		n.dropAttr("starts")
		n.dropAttr("ends")
		n.dropAttr("axes")
	case "Clip":
		if from >= 11 {
			return nil
		}
		if vi := e.g.Value(n.inputs[0]); vi == nil || vi.DType != payload.Float32 {
			return bad("input is not known to be float32")
		}
		lo, hi := n.attrFloat("min", -math.MaxFloat32), n.attrFloat("max", math.MaxFloat32)
		n.inputs = append(n.inputs[:1],
			initOf(e, n.outputs[0]+"_min", nil, []float32{lo}),
			initOf(e, n.outputs[0]+"_max", nil, []float32{hi}))
		n.dropAttr("min")
		n.dropAttr("max")
	case "Dropout":
		if from < 12 && to >= 12 {
			n.dropAttr("ratio")
			n.dropAttr("is_test")
		}
	case "Softmax", "LogSoftmax", "Hardmax":
		if from >= 13 || to < 13 {
			return nil
		}
		vi := e.g.Value(n.inputs[0])
		if vi == nil || !vi.RankKnown {
			return bad("has an input of unknown rank")
		}
		ax := n.attrInt("axis", 1)
		r := int64(len(vi.Shape))
		if ax < 0 {
			ax += r
		}
		if ax != r-1 {
			return bad("works on more than its last axis")
		}
		n.dropAttr("axis")
		n.attrs = append(n.attrs, intAttr("axis", -1))
	case "Squeeze", "Unsqueeze", "ReduceSum":
		if from >= 13 || to < 13 {
			return nil
		}
		if ax := n.attr("axes"); ax != nil {
			n.inputs = append(n.inputs[:1], ints(n.outputs[0]+"_axes", ax.ints))
			n.dropAttr("axes")
		}
	case "Split":
		if from >= 13 || to < 13 {
			return nil
		}
		if sp := n.attr("split"); sp != nil {
			n.inputs = append(n.inputs[:1], ints(n.outputs[0]+"_split", sp.ints))
			n.dropAttr("split")
		}
	default:
		if !sameForInference[n.op] {
			return bad("is not converted")
		}
	}
	return nil
}
