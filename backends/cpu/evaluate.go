package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Evaluate computes node n on constant inputs with the CPU kernels. It is a
// model.Evaluator: the CPU backend folds constants with it, and other
// backends use it to fold what depends only on shapes once those are known.
func Evaluate(n *model.Node, opset int64, inputs []*model.Tensor, outTypes []payload.DType) ([]*model.Tensor, error) {
	return evalNode(n, opset, inputs, outTypes)
}
