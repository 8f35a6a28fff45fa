package quantize

// planOutputs finds, for each static candidate, where its QDQ unit ends:
// a MatMul whose output only an Add of a 1-D float32 constant over its
// columns reads becomes a Gemm with that bias when its input is 2-D; a
// Relu or Clip that alone reads the op's (or the Add's) output joins the
// unit. The tensor after them, c.out, is quantized as ONNX Runtime's
// quantize_static does, so that the unit's float op runs between
// DequantizeLinear and QuantizeLinear and can become an integer kernel.
func (e *editor) planOutputs(cands []*cand) {
	readers := map[string][]*node{}
	for _, n := range e.nodes {
		for _, in := range n.inputs {
			if in != "" {
				readers[in] = append(readers[in], n)
			}
		}
	}
	only := func(v string) *node {
		if e.outputs[v] || len(readers[v]) != 1 {
			return nil
		}
		n := readers[v][0]
		if n.dom != "" || n.hasGraph || len(n.outputs) != 1 {
			return nil
		}
		return n
	}
	for _, c := range cands {
		out := c.n.outputs[0]
		// A subgraph may read the MatMul's output, which the Gemm drops.
		if c.n.op == "MatMul" && len(c.n.inputs) == 2 && !e.subgraphs {
			if add := only(out); add != nil && add.op == "Add" && len(add.inputs) == 2 && add.inputs[0] != add.inputs[1] {
				other := add.inputs[0]
				if other == out {
					other = add.inputs[1]
				}
				vi := e.g.Value(c.x)
				b, why := e.constFloat(other)
				if why == "" && len(b.Shape) == 1 && b.Shape[0] == c.w.Shape[1] && vi != nil && vi.RankKnown && len(vi.Shape) == 2 {
					c.add, c.bias, c.bName = add, b, other
					out = add.outputs[0]
				}
			}
		}
		if act := only(out); act != nil && (act.op == "Relu" || act.op == "Clip") {
			c.act = act
			out = act.outputs[0]
		}
		c.out = out
	}
}
