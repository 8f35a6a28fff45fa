package model

import "github.com/lintel-ml/lintel/payload"

// inferRule runs a descriptor's rule on what the graph knows of n's
// inputs and returns its outputs' types; sc is the graph's scope. The
// subgraphs of a SubgraphRule are inferred first.
func inferRule(sc *scope, n *Node, opset int64, op *Op, rule Rule, depth int) ([]ValueInfo, error) {
	c := NewInferCtx(n, opset, false)
	for i, name := range n.Inputs {
		if name == "" {
			continue
		}
		v := sc.value(name)
		if v == nil {
			if t := sc.constant(name); t != nil {
				c.SetInput(i, t.DType, t.Shape, true)
			} else {
				c.SetInput(i, payload.Undefined, nil, false)
			}
			continue
		}
		c.SetInput(i, v.DType, v.Shape, v.RankKnown)
		c.SetInputKind(i, v.Kind)
	}
	for _, i := range op.At(opset).Values {
		if err := setConstValues(c, sc, n, i); err != nil {
			return nil, err
		}
	}
	if sr, ok := rule.(SubgraphRule); ok {
		if err := inferSubgraphs(sc, n, sr, c, depth); err != nil {
			return nil, err
		}
	}
	if err := rule.Infer(c); err != nil {
		return nil, err
	}
	outs := make([]ValueInfo, len(n.Outputs))
	for j := range outs {
		o := c.Out(j)
		outs[j].DType, outs[j].Kind = o.DType, o.Kind
		if o.Ranked {
			outs[j].Shape, outs[j].RankKnown = copyDims(o.Dims), true
			if outs[j].Shape == nil {
				outs[j].Shape = []int{}
			}
		}
	}
	return outs, nil
}

// setConstValues records the contents of input i when it is a constant
// small enough to read.
func setConstValues(c *InferCtx, sc *scope, n *Node, i int) error {
	t := sc.constant(n.Input(i))
	if t == nil {
		return nil
	}
	if k := t.NumElems(); k < 0 || k > maxConstRead {
		return nil
	}
	if t.DType.IsFloat() {
		v, err := t.Float64s()
		if err != nil {
			return c.Errorf("input %d (%q): %v", i, n.Input(i), err)
		}
		c.SetFloats(i, v)
		return nil
	}
	v, err := t.Int64s()
	if err != nil {
		return c.Errorf("input %d (%q): %v", i, n.Input(i), err)
	}
	c.SetInts(i, v)
	return nil
}

func isDefaultDomain(d string) bool { return d == "" || d == "ai.onnx" }

// inferNode returns the types of n's outputs, as far as they are known:
// its descriptor's rule, or nothing for an op no descriptor describes
// (an op lintel does not know, of any domain; backends refuse those).
func inferNode(sc *scope, n *Node, depth int) ([]ValueInfo, error) {
	opset := OpsetOf(sc.g, n.Domain)
	desc, rule, err := BindNode(n, opset)
	if err != nil {
		return nil, err
	}
	if desc == nil {
		return make([]ValueInfo, len(n.Outputs)), nil
	}
	return inferRule(sc, n, opset, desc, rule, depth)
}
