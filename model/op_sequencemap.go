package model

func init() {
	RegisterOp(&Op{
		Type: "SequenceMap",
		Versions: []Version{
			{Since: 17, MinIn: 1, MaxIn: Many, MaxOut: manyOut},
		},
		InputNames: []string{"input_sequence", "additional_inputs"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			body, err := graphAttr(n, "body")
			if err != nil {
				return nil, err
			}
			if len(body.Inputs) != len(n.Inputs) {
				return nil, attrInvalid(n, "the body has %d inputs, want %d (one per input of the node)", len(body.Inputs), len(n.Inputs))
			}
			if len(body.Outputs) != len(n.Outputs) {
				return nil, attrInvalid(n, "the body has %d outputs, want %d (one per output of the node)", len(body.Outputs), len(n.Outputs))
			}
			return &SequenceMapAttrs{Body: body}, nil
		},
		NoFold: true,
	})
}

// SequenceMapAttrs are a SequenceMap node's attributes. The body runs
// once per element of the input sequence: its first input is that
// element, and each further input is the element at the same position of
// the node's input when that is a sequence (every sequence input has the
// same length) or the node's input whole when it is a tensor. Each of
// the body's outputs gives one element of the matching output sequence.
type SequenceMapAttrs struct {
	Body *Graph
}

// Subgraphs implements SubgraphRule.
func (a *SequenceMapAttrs) Subgraphs() []*Graph { return []*Graph{a.Body} }

// SubgraphInputs implements SubgraphRule: the body's input i is a tensor
// of the element type and shape of the node's input i, or of its
// elements when that is a sequence.
func (a *SequenceMapAttrs) SubgraphInputs(c *InferCtx, k int) []ValueInfo {
	out := make([]ValueInfo, c.NumIn())
	for i := range out {
		out[i].DType = c.DType(i)
		if d, ok := c.Dims(i); ok {
			out[i].Shape, out[i].RankKnown = copyDims(d), true
		}
	}
	return out
}

// Infer implements Rule: output j is a sequence of the body's output j,
// with that output's element type and known dims.
func (a *SequenceMapAttrs) Infer(c *InferCtx) error {
	if k := c.Kind(0); k != KindSequence {
		return c.Errorf("input 0 is a value of kind %s, want a sequence", k)
	}
	for i := 1; i < c.NumIn(); i++ {
		if k := c.Kind(i); k != KindSequence && k != KindTensor {
			return c.Errorf("input %d is a value of kind %s, want a sequence or a tensor", i, k)
		}
	}
	for j := range c.NumOut() {
		o := a.Body.Outputs[j]
		if o.Kind != KindTensor {
			return c.Errorf("the body's output %d is a value of kind %s, want a tensor", j, o.Kind)
		}
		c.SetType(j, o.DType)
		c.SetKind(j, KindSequence)
		if o.RankKnown {
			c.SetDims(j, o.Shape)
		} else {
			c.SetUnranked(j)
		}
	}
	return nil
}
