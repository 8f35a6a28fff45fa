package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "Loop",
		Versions: []Version{
			{Since: 1, MinIn: 0, MaxIn: manyOut, MaxOut: manyOut},
		},
		InputNames: []string{"M", "cond", "v_initial"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			body, err := graphAttr(n, "body")
			if err != nil {
				return nil, err
			}
			if len(n.Inputs) < 2 {
				return nil, attrInvalid(n, "%d inputs, want at least 2 (M and cond, which may be empty)", len(n.Inputs))
			}
			a := &LoopAttrs{Body: body, Carried: len(n.Inputs) - 2}
			a.Scans = len(n.Outputs) - a.Carried
			if a.Scans < 0 {
				return nil, attrInvalid(n, "%d outputs for %d loop-carried values", len(n.Outputs), a.Carried)
			}
			if len(body.Inputs) != 2+a.Carried {
				return nil, attrInvalid(n, "the body has %d inputs, want %d (iteration, condition and %d loop-carried values)", len(body.Inputs), 2+a.Carried, a.Carried)
			}
			if len(body.Outputs) != 1+a.Carried+a.Scans {
				return nil, attrInvalid(n, "the body has %d outputs, want %d (condition, %d loop-carried values and %d scan outputs)", len(body.Outputs), 1+a.Carried+a.Scans, a.Carried, a.Scans)
			}
			return a, nil
		},
		NoFold: true,
	})
}

// LoopAttrs are a Loop node's attributes. The body runs while the
// iteration count is below M (when given) and the condition holds (when
// given; the body computes the next one). It takes the iteration number
// (int64), the condition (bool) and the Carried loop-carried values, and
// gives the next condition, the next loop-carried values, and Scans
// values per iteration that the node's last outputs stack along a new
// first axis.
type LoopAttrs struct {
	Body *Graph
	// Carried is the number of loop-carried values, Scans the number of
	// scan outputs.
	Carried, Scans int
}

// Subgraphs implements SubgraphRule.
func (a *LoopAttrs) Subgraphs() []*Graph { return []*Graph{a.Body} }

// SubgraphInputs implements SubgraphRule: the iteration number is an
// int64 scalar, the condition a bool scalar, and a loop-carried value has
// its initial value's element type; its shape may change from one
// iteration to the next, so it is left as the file declares it (as ONNX's
// inference does).
func (a *LoopAttrs) SubgraphInputs(c *InferCtx, k int) []ValueInfo {
	out := make([]ValueInfo, 2+a.Carried)
	out[0] = ValueInfo{DType: payload.Int64, Shape: []int{}, RankKnown: true}
	out[1] = ValueInfo{DType: payload.Bool, Shape: []int{}, RankKnown: true}
	for i := range a.Carried {
		out[2+i].DType = c.DType(2 + i)
	}
	return out
}

// Infer implements Rule. A final loop-carried value has its initial
// value's type, with the dims the body keeps; a scan output has the
// body's per-iteration type with an unknown leading dim.
func (a *LoopAttrs) Infer(c *InferCtx) error {
	if dt := c.DType(0); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("M has element type %s, want int64", dt)
	}
	if dt := c.DType(1); dt != payload.Bool && dt != payload.Undefined {
		return c.Errorf("cond has element type %s, want bool", dt)
	}
	for i := range a.Carried {
		init := ValueInfo{DType: c.DType(2 + i)}
		init.Shape, init.RankKnown = c.Dims(2 + i)
		v, ok := MergeTypes(init, a.Body.Outputs[1+i])
		if !ok {
			return c.Errorf("loop-carried value %d is %s, but the body gives %s", i, init.DType, a.Body.Outputs[1+i].DType)
		}
		c.SetType(i, v.DType)
		c.SetKind(i, max(c.Kind(2+i), a.Body.Outputs[1+i].Kind))
		if v.RankKnown {
			c.SetDims(i, v.Shape)
		} else {
			c.SetUnranked(i)
		}
	}
	for k := range a.Scans {
		o := a.Body.Outputs[1+a.Carried+k]
		j := a.Carried + k
		c.SetType(j, o.DType)
		if !o.RankKnown {
			c.SetUnranked(j)
			continue
		}
		if err := c.RankOK(len(o.Shape) + 1); err != nil {
			return err
		}
		d := c.OutDims(j, len(o.Shape)+1)
		d[0] = -1
		copy(d[1:], o.Shape)
	}
	return nil
}
