package model

import "github.com/lintel-ml/lintel/payload"

// Evaluator computes a node on constant inputs; backends supply it (absent
// optional inputs are nil). outTypes are the inferred output element types.
type Evaluator func(n *Node, opset int64, inputs []*Tensor, outTypes []payload.DType) ([]*Tensor, error)

// Fold replaces with constants (g.Initializers) every node it can.
func Fold(g *Graph, eval Evaluator) error { return nil }
