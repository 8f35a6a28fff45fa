package model

import "github.com/lintel-ml/lintel/internal/errs"

// variadicOps take one or more inputs, none of which may be absent.
var variadicOps = setOf("Concat", "Max", "Min", "Mean", "Sum")

// requiredCounts are the default-domain ops whose first inputs are
// required, by how many (in the opsets lintel reads, where the count does
// not depend on the opset). Ops not listed here or in requiredInputs take
// one required input; ops lintel does not know are not checked.
var requiredCounts = map[string]int{
	"Constant": 0,
	"Add":      2, "Sub": 2, "Mul": 2, "Div": 2, "Pow": 2, "Mod": 2, "PRelu": 2, "BitShift": 2,
	"BitwiseAnd": 2, "BitwiseOr": 2, "BitwiseXor": 2,
	"Equal": 2, "Less": 2, "Greater": 2, "LessOrEqual": 2, "GreaterOrEqual": 2, "And": 2, "Or": 2, "Xor": 2,
	"MatMul": 2, "CastLike": 2, "Conv": 2, "ConvTranspose": 2, "Gemm": 2, "LayerNormalization": 2,
	"Tile": 2, "Expand": 2, "Gather": 2, "GatherElements": 2,
	"Range": 3, "Where": 3, "InstanceNormalization": 3, "BatchNormalization": 5,
}

// requiredInputs returns how many leading inputs of op are required at
// opset, and whether op is known. Variadic ops are handled apart.
func requiredInputs(op string, opset int64) (int, bool) {
	switch op {
	case "Slice":
		if opset >= 10 {
			return 3, true // data, starts, ends; before: attributes
		}
		return 1, true
	case "Pad":
		if opset >= 11 {
			return 2, true // data, pads
		}
		return 1, true
	case "Reshape":
		if opset >= 5 {
			return 2, true // data, shape; before: an attribute
		}
		return 1, true
	case "Unsqueeze":
		if opset >= 13 {
			return 2, true // data, axes
		}
		return 1, true
	case "Upsample":
		if opset >= 9 {
			return 2, true // X, scales
		}
		return 1, true
	}
	if n, ok := requiredCounts[op]; ok {
		return n, true
	}
	return 1, unaryOps[op] || reduceOps[op] || poolOps[op] || knownOneInput[op]
}

// knownOneInput are the other ops inference knows that take one required
// input (later inputs, if any, are optional).
var knownOneInput = setOf("ArgMax", "ArgMin", "Cast", "ConstantOfShape", "DepthToSpace", "SpaceToDepth",
	"Dropout", "Flatten", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "IsInf", "IsNaN",
	"NonZero", "Not", "Resize", "Shape", "Size", "Split", "Squeeze", "Transpose")

// checkArity refuses a node of a known op that leaves out a required
// input, with an errs.InvalidArtifact error naming the node.
func checkArity(n *Node, opset int64) error {
	if variadicOps[n.OpType] {
		if len(n.Inputs) == 0 {
			return errs.New(errs.InvalidArtifact, "node %q (%s): no inputs", n.Label(), n.OpType)
		}
		for i, in := range n.Inputs {
			if in == "" {
				return errs.New(errs.InvalidArtifact, "node %q (%s): input %d is empty", n.Label(), n.OpType, i)
			}
		}
		return nil
	}
	req, known := requiredInputs(n.OpType, opset)
	if !known {
		return nil
	}
	for i := range req {
		if n.Input(i) == "" {
			name := ""
			if names := inputNames[n.OpType]; i < len(names) {
				name = " (" + names[i] + ")"
			}
			return errs.New(errs.InvalidArtifact, "node %q (%s): required input %d%s is missing", n.Label(), n.OpType, i, name)
		}
	}
	return nil
}

// inputNames are the spec's names of the required inputs of ops with more
// than one, for error messages.
var inputNames = map[string][]string{
	"Slice": {"data", "starts", "ends"}, "Pad": {"data", "pads"}, "Unsqueeze": {"data", "axes"},
	"Upsample": {"X", "scales"}, "Reshape": {"data", "shape"}, "Tile": {"input", "repeats"},
	"Expand": {"input", "shape"}, "Gather": {"data", "indices"}, "GatherElements": {"data", "indices"},
	"Range": {"start", "limit", "delta"}, "Where": {"condition", "X", "Y"}, "Conv": {"X", "W"},
	"ConvTranspose": {"X", "W"}, "Gemm": {"A", "B"}, "MatMul": {"A", "B"}, "CastLike": {"input", "target_type"},
	"LayerNormalization": {"X", "Scale"}, "InstanceNormalization": {"input", "scale", "B"},
	"BatchNormalization": {"X", "scale", "B", "input_mean", "input_var"},
}
