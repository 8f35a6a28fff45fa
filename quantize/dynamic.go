package quantize

import (
	"github.com/lintel-ml/lintel/payload"
)

// mk returns a node.
func mk(op string, inputs, outputs []string, attrs ...attr) *node {
	return &node{op: op, inputs: inputs, outputs: outputs, attrs: attrs}
}

// dynamic rewrites each candidate into ONNX Runtime's dynamic form:
//
//	x → DynamicQuantizeLinear → (xq, xs, xzp)
//	MatMulInteger(xq, Wq, xzp, 0) or ConvInteger(...) → int32
//	→ Cast(float) → Mul(·, xs·Ws) [→ Add(bias)] → y
func (e *editor) dynamic(cands []*cand) error {
	byNode := map[*node]*cand{}
	for _, c := range cands {
		byNode[c.n] = c
	}
	type dq struct{ q, s, zp string }
	dqs := map[string]dq{}
	var out []*node
	for _, n := range e.nodes {
		c := byNode[n]
		if c == nil {
			out = append(out, n)
			continue
		}
		x, ok := dqs[c.x]
		if !ok {
			x = dq{e.name(c.x + "_quantized"), e.name(c.x + "_scale"), e.name(c.x + "_zero_point")}
			dqs[c.x] = x
			out = append(out, mk("DynamicQuantizeLinear", []string{c.x}, []string{x.q, x.s, x.zp}))
		}
		y := n.outputs[0]
		base := y
		if n.name != "" {
			base = n.name
		}
		e.replaced[c.wName] = true
		var integer *node
		var wsShape []int64
		var ws []float32
		switch n.op {
		case "MatMul", "Gemm":
			k, m := c.w.Shape[0], c.w.Shape[1]
			w := floats(c.w.Raw)
			if c.transB {
				w = transpose2(w, k, m)
				k, m = m, k
			}
			q, s := perChannel(w, []int{k, m}, 1)
			if n.op == "Gemm" {
				alpha := n.attrFloat("alpha", 1)
				for i := range s {
					s[i] *= alpha
				}
			}
			ws, wsShape = s, []int64{int64(m)}
			wq := initOf(e, c.wName+"_quantized", []int64{int64(k), int64(m)}, q)
			wzp := initOf(e, c.wName+"_zero_point", nil, []int8{0})
			integer = mk("MatMulInteger", []string{x.q, wq, x.zp, wzp}, []string{e.name(base + "_output_quantized")})
		case "Conv":
			shape := c.w.Shape
			q, s := perChannel(floats(c.w.Raw), shape, 0)
			ws = s
			wsShape = make([]int64, len(shape)-1)
			wsShape[0] = int64(shape[0])
			for i := 1; i < len(wsShape); i++ {
				wsShape[i] = 1
			}
			dims := make([]int64, len(shape))
			for i, d := range shape {
				dims[i] = int64(d)
			}
			// One zero point for all channels: ONNX Runtime's
			// ConvInteger takes only a scalar.
			wq := initOf(e, c.wName+"_quantized", dims, q)
			wzp := initOf(e, c.wName+"_zero_point", nil, []int8{0})
			integer = mk("ConvInteger", []string{x.q, wq, x.zp, wzp}, []string{e.name(base + "_output_quantized")})
			integer.attrs = append(integer.attrs, n.attrs...)
		}
		integer.name = e.name(base + "_quant")
		cast := e.name(base + "_output_quantized_cast_output")
		wsName := initOf(e, c.wName+"_scale", wsShape, ws)
		scale := e.name(base + "_scale_product")
		out = append(out, integer,
			mk("Cast", []string{integer.outputs[0]}, []string{cast}, intAttr("to", int64(payload.Float32))),
			mk("Mul", []string{x.s, wsName}, []string{scale}))
		hasBias := c.bName != ""
		prod := y
		if hasBias {
			prod = e.name(base + "_output_scaled")
		}
		out = append(out, mk("Mul", []string{cast, scale}, []string{prod}))
		if !hasBias {
			continue
		}
		bias := c.bName
		switch {
		case n.op == "Conv":
			e.replaced[c.bName] = true
			bias = initOf(e, c.bName+"_reshaped", wsShape, floats(c.bias.Raw))
		case n.op == "Gemm" && n.attrFloat("beta", 1) != 1:
			beta := n.attrFloat("beta", 1)
			bias = e.name(c.bName + "_beta")
			betaName := initOf(e, c.bName+"_beta_value", nil, []float32{beta})
			out = append(out, mk("Mul", []string{c.bName, betaName}, []string{bias}))
		}
		out = append(out, mk("Add", []string{prod, bias}, []string{y}))
	}
	e.nodes = out
	return nil
}
