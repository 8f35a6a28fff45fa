package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "If",
		Versions: []Version{
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: manyOut, Values: []int{0}},
		},
		InputNames: []string{"cond"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &IfAttrs{}
			var err error
			if a.Then, err = graphAttr(n, "then_branch"); err != nil {
				return nil, err
			}
			if a.Else, err = graphAttr(n, "else_branch"); err != nil {
				return nil, err
			}
			if len(a.Then.Inputs) > 0 || len(a.Else.Inputs) > 0 {
				return nil, attrInvalid(n, "a branch has inputs; If's branches take none")
			}
			if len(a.Then.Outputs) != len(a.Else.Outputs) {
				return nil, attrInvalid(n, "then_branch has %d outputs, else_branch %d", len(a.Then.Outputs), len(a.Else.Outputs))
			}
			if len(n.Outputs) != len(a.Then.Outputs) {
				return nil, attrInvalid(n, "%d outputs, the branches have %d", len(n.Outputs), len(a.Then.Outputs))
			}
			return a, nil
		},
		NoFold: true,
	})
}

// IfAttrs are an If node's attributes: the graph run when the condition
// (a one-element bool tensor) is true, and the one run when it is false.
// Both take no inputs, use values of the enclosing graphs, and give the
// node's outputs.
type IfAttrs struct {
	Then, Else *Graph
}

// Subgraphs implements SubgraphRule.
func (a *IfAttrs) Subgraphs() []*Graph { return []*Graph{a.Then, a.Else} }

// SubgraphInputs implements SubgraphRule: the branches take no inputs.
func (a *IfAttrs) SubgraphInputs(c *InferCtx, k int) []ValueInfo { return nil }

// Infer implements Rule. Each output is what is known of both branches'
// (their element type, and the dims where they agree), or of the taken
// branch's when the condition is known.
func (a *IfAttrs) Infer(c *InferCtx) error {
	if dt := c.DType(0); dt != payload.Bool && dt != payload.Undefined {
		return c.Errorf("the condition has element type %s, want bool", dt)
	}
	if d, ok := c.Dims(0); ok {
		if n, known, err := c.Numel(d); err != nil || (known && n != 1) {
			return c.Errorf("the condition has shape %v, want one element", d)
		}
	}
	taken := -1
	if v, ok := c.Ints(0); ok && len(v) == 1 {
		taken = int(v[0] & 1)
	}
	for j := range c.NumOut() {
		t, e := a.Then.Outputs[j], a.Else.Outputs[j]
		var v ValueInfo
		switch taken {
		case 1:
			v = t
		case 0:
			v = e
		default:
			var ok bool
			if v, ok = MergeTypes(t, e); !ok {
				return c.Errorf("output %d is %s in then_branch but %s in else_branch", j, t.DType, e.DType)
			}
		}
		c.SetType(j, v.DType)
		c.SetKind(j, max(t.Kind, e.Kind))
		if v.RankKnown {
			c.SetDims(j, v.Shape)
		} else {
			c.SetUnranked(j)
		}
	}
	return nil
}

// graphAttr returns n's graph attribute name, refusing a missing one.
func graphAttr(n *Node, name string) (*Graph, error) {
	a, err := n.attrOf(name, AttrGraph)
	if err != nil {
		return nil, err
	}
	if a == nil || a.G == nil {
		return nil, attrMissing(n, name)
	}
	return a.G, nil
}

// mayRun implements alternatives: branch 0 (then) runs unless the
// condition is known false, branch 1 (else) unless it is known true.
func (a *IfAttrs) mayRun(c *InferCtx, k int) bool {
	v, ok := c.Ints(0)
	if !ok || len(v) != 1 {
		return true
	}
	return (v[0] != 0) == (k == 0)
}
