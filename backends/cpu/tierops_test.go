package cpu

import "testing"

// TestTierOpsRegistered pins the ops the CPU backend promises: tier 1
// (transformer and MLP building blocks) and tier 2 (convolutional nets).
func TestTierOpsRegistered(t *testing.T) {
	tiers := map[string][]string{
		"tier 1": {"Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "Exp", "Log", "Neg", "Abs",
			"Erf", "Relu", "LeakyRelu", "Sigmoid", "Tanh", "Gelu", "Softmax", "LogSoftmax", "LayerNormalization",
			"ReduceMean", "ReduceSum", "ReduceMax", "ArgMax", "Flatten", "Reshape", "Squeeze", "Unsqueeze",
			"Transpose", "Concat", "Split", "Slice", "Gather", "Expand", "Where", "Equal", "Less", "Greater",
			"Not", "Identity", "Dropout", "Constant", "ConstantOfShape", "Shape", "Size", "Cast", "Clip", "Min", "Max"},
		"tier 2": {"Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
			"BatchNormalization", "HardSigmoid", "HardSwish", "Pad", "Resize"},
	}
	for tier, ops := range tiers {
		for _, op := range ops {
			if registry[op] == nil {
				t.Errorf("%s op %s is not registered", tier, op)
			}
		}
	}
}
