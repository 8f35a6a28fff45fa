package quantize

import (
	"github.com/lintel-ml/lintel/internal/errs"
)

// qp is a quantized activation: the DequantizeLinear output that stands
// for it and its scale.
type qp struct {
	dq    string
	scale float32
}

// static rewrites each candidate into a QDQ unit as ONNX Runtime's
// quantize_static emits it: its activation input through QuantizeLinear
// and DequantizeLinear (uint8, per tensor, from the calibrated range),
// its weight stored as int8 per channel behind a DequantizeLinear on the
// channel axis, a 1-D bias stored as int32 with scale xs·Ws behind
// another, and its output (after the bias Add a MatMul becomes a Gemm
// with, and after a Relu or Clip that follows, see planOutputs) through
// a QuantizeLinear and DequantizeLinear pair of the calibrated range of
// that tensor. The float op itself is unchanged.
func (e *editor) static(cands []*cand, ranges map[string][2]float32) error {
	byNode := map[*node]*cand{}
	byAct := map[*node]*cand{}
	adds := map[*node]bool{}
	for _, c := range cands {
		byNode[c.n] = c
		if c.act != nil {
			byAct[c.act] = c
		}
		if c.add != nil {
			adds[c.add] = true
		}
	}
	acts := map[string]qp{}
	var out []*node
	for _, n := range e.nodes {
		if adds[n] {
			continue
		}
		if c := byAct[n]; c != nil {
			nn := *n
			nn.outputs = append([]string(nil), n.outputs...)
			tail, err := e.quantizeOut(&nn, c, ranges, acts)
			if err != nil {
				return err
			}
			out = append(append(out, &nn), tail...)
			continue
		}
		c := byNode[n]
		if c == nil {
			out = append(out, n)
			continue
		}
		x, ok := acts[c.x]
		if !ok {
			r, ok := ranges[c.x]
			if !ok {
				return errs.New(errs.ExecutionFailed, "quantize: no range calibrated for %q", c.x)
			}
			s, zp := uint8Params(r[0], r[1])
			sName := initOf(e, c.x+"_scale", nil, []float32{s})
			zName := initOf(e, c.x+"_zero_point", nil, []uint8{zp})
			q := e.name(c.x + "_QuantizeLinear_Output")
			x = qp{e.name(c.x + "_DequantizeLinear_Output"), s}
			acts[c.x] = x
			out = append(out,
				&node{op: "QuantizeLinear", name: e.name(c.x + "_QuantizeLinear"), inputs: []string{c.x, sName, zName}, outputs: []string{q}},
				&node{op: "DequantizeLinear", name: e.name(c.x + "_DequantizeLinear"), inputs: []string{q, sName, zName}, outputs: []string{x.dq}})
		}
		e.replaced[c.wName] = true
		dims := make([]int64, len(c.w.Shape))
		for i, d := range c.w.Shape {
			dims[i] = int64(d)
		}
		q, ws := perChannel(floats(c.w.Raw), c.w.Shape, c.axis)
		ch := []int64{int64(len(ws))}
		wq := initOf(e, c.wName+"_quantized", dims, q)
		wsName := initOf(e, c.wName+"_scale", ch, ws)
		wzp := initOf(e, c.wName+"_zero_point", ch, make([]int8, len(ws)))
		wdq := e.name(c.wName + "_DequantizeLinear_Output")
		out = append(out, &node{op: "DequantizeLinear", name: e.name(c.wName + "_DequantizeLinear"),
			inputs: []string{wq, wsName, wzp}, outputs: []string{wdq}, attrs: []attr{intAttr("axis", int64(c.axis))}})
		nn := *n
		nn.inputs = append([]string(nil), n.inputs...)
		nn.outputs = append([]string(nil), n.outputs...)
		if c.add != nil {
			nn.op = "Gemm"
			nn.inputs = []string{c.x, c.wName, c.bName}
			nn.outputs = []string{c.add.outputs[0]}
		}
		nn.inputs[0], nn.inputs[1] = x.dq, wdq
		// A Gemm's bias keeps float32 when alpha or beta scale the
		// terms: its scale would not be the product's.
		gemmScaled := n.op == "Gemm" && (n.attrFloat("alpha", 1) != 1 || n.attrFloat("beta", 1) != 1)
		if c.bias != nil && !gemmScaled {
			e.replaced[c.bName] = true
			bq, bs := biasInt32(floats(c.bias.Raw), x.scale, ws)
			bqName := initOf(e, c.bName+"_quantized", ch, bq)
			bsName := initOf(e, c.bName+"_scale", ch, bs)
			bzp := initOf(e, c.bName+"_zero_point", ch, make([]int32, len(bs)))
			bdq := e.name(c.bName + "_DequantizeLinear_Output")
			out = append(out, &node{op: "DequantizeLinear", name: e.name(c.bName + "_DequantizeLinear"),
				inputs: []string{bqName, bsName, bzp}, outputs: []string{bdq}, attrs: []attr{intAttr("axis", 0)}})
			nn.inputs[2] = bdq
		}
		out = append(out, &nn)
		if c.act == nil {
			tail, err := e.quantizeOut(&nn, c, ranges, acts)
			if err != nil {
				return err
			}
			out = append(out, tail...)
		}
	}
	e.nodes = out
	return nil
}

// quantizeOut makes n, the last node of c's unit, write a fresh float
// value and returns the QuantizeLinear and DequantizeLinear that turn it
// into c.out, with the calibrated range of c.out; later units read
// c.out as their quantized input.
func (e *editor) quantizeOut(n *node, c *cand, ranges map[string][2]float32, acts map[string]qp) ([]*node, error) {
	r, ok := ranges[c.out]
	if !ok {
		return nil, errs.New(errs.ExecutionFailed, "quantize: no range calibrated for %q", c.out)
	}
	s, zp := uint8Params(r[0], r[1])
	sName := initOf(e, c.out+"_scale", nil, []float32{s})
	zName := initOf(e, c.out+"_zero_point", nil, []uint8{zp})
	f := e.name(c.out + "_float")
	q := e.name(c.out + "_QuantizeLinear_Output")
	n.outputs[0] = f
	acts[c.out] = qp{c.out, s}
	return []*node{
		{op: "QuantizeLinear", name: e.name(c.out + "_QuantizeLinear"), inputs: []string{f, sName, zName}, outputs: []string{q}},
		{op: "DequantizeLinear", name: e.name(c.out + "_DequantizeLinear"), inputs: []string{q, sName, zName}, outputs: []string{c.out}},
	}, nil
}
