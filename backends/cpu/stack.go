package cpu

import (
	"github.com/lintel-ml/lintel/batch"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Stacked batches.
//
// When every item of a batch has the same shapes and the graph is
// separable along axis 0 (no op mixes rows of different items), InferBatch
// concatenates the items along axis 0, runs the graph once, and splits the
// outputs. Kernels compute each row the same way whatever the number of
// rows, so every item gets exactly what InferOne gives it.

// analyzeStacking decides, at load, whether the program is separable
// along axis 0. It is conservative: any op it cannot prove row-wise makes
// InferBatch run item by item.
func (p *program) analyzeStacking() bool {
	if len(p.inputs) == 0 || len(p.outputs) == 0 {
		return false
	}
	// String tensors' bytes do not split into equal rows.
	for i := range p.values {
		if p.values[i].dt == payload.String {
			return false
		}
	}
	b := make([]bool, len(p.values)) // value carries the batch on axis 0
	for _, i := range p.inputs {
		v := &p.values[i]
		if v.rank < 1 || v.shape[0] >= 0 {
			return false
		}
		b[i] = true
	}
	for si := range p.steps {
		st := &p.steps[si]
		any := false
		for _, v := range st.in {
			if v >= 0 && b[v] {
				any = true
			}
		}
		if !any {
			continue
		}
		if !p.stepSeparable(st, b) {
			return false
		}
		for _, v := range st.out {
			if v >= 0 {
				b[v] = true
			}
		}
	}
	for _, o := range p.outputs {
		if !b[o] {
			return false
		}
	}
	return true
}

// rankOf returns a value's static rank, -1 when unknown.
func (p *program) rankOf(v int) int {
	if v < 0 {
		return -1
	}
	return p.values[v].rank
}

// constInts returns a constant value's integers.
func (p *program) constInts(v int) ([]int64, bool) {
	if v < 0 || p.values[v].kind != kindConst {
		return nil, false
	}
	s, err := p.values[v].c.Int64s()
	return s, err == nil
}

// stackAxis maps a possibly negative axis into [0, rank), or -1.
func stackAxis(a int64, rank int) int {
	if rank < 0 {
		return -1
	}
	if a < 0 {
		a += int64(rank)
	}
	if a < 0 || a >= int64(rank) {
		return -1
	}
	return int(a)
}

// elementwiseSeparable: every batched input has the output's rank, every
// other input a lower rank or a static leading 1.
func (p *program) elementwiseSeparable(st *step, b []bool) bool {
	r := -1
	for _, v := range st.in {
		if v >= 0 && b[v] {
			if p.rankOf(v) < 1 {
				return false
			}
			r = max(r, p.rankOf(v))
		}
	}
	for _, v := range st.in {
		if v < 0 {
			continue
		}
		rv := p.rankOf(v)
		if rv < 0 || rv > r {
			return false
		}
		if b[v] && rv != r {
			return false
		}
		if !b[v] && rv == r && p.values[v].shape[0] != 1 {
			return false
		}
	}
	return true
}

var rowwiseOps = map[string]bool{
	"Add": true, "Sub": true, "Mul": true, "Div": true, "Pow": true, "Mod": true, "Min": true, "Max": true,
	"Sum": true, "Mean": true, "And": true, "Or": true, "Xor": true, "Equal": true, "Less": true,
	"Greater": true, "LessOrEqual": true, "GreaterOrEqual": true, "Where": true, "Sqrt": true, "Exp": true,
	"Log": true, "Neg": true, "Abs": true, "Erf": true, "Reciprocal": true, "Floor": true, "Ceil": true,
	"Round": true, "Sin": true, "Cos": true, "Sign": true, "Not": true, "Relu": true, "LeakyRelu": true,
	"Elu": true, "Selu": true, "Sigmoid": true, "Tanh": true, "Softplus": true, "Softsign": true,
	"HardSigmoid": true, "HardSwish": true, "Gelu": true, "Mish": true, "PRelu": true, "Clip": true,
	"Celu": true, "Cast": true, "CastLike": true, "Identity": true, "Dropout": true,
}

// stepSeparable reports whether st keeps items apart along axis 0, given
// which of its inputs are batched.
func (p *program) stepSeparable(st *step, b []bool) bool {
	n := st.n
	in := func(i int) int {
		if i < len(st.in) {
			return st.in[i]
		}
		return -1
	}
	batched := func(i int) bool { v := in(i); return v >= 0 && b[v] }
	onlyFirst := func() bool {
		for i := 1; i < len(st.in); i++ {
			if batched(i) {
				return false
			}
		}
		return batched(0)
	}
	r0 := p.rankOf(in(0))
	switch op := n.OpType; {
	case model.IsEwNode(n):
		// Its inputs have one shape: all of them must carry the batch.
		for i := range st.in {
			if !batched(i) {
				return false
			}
		}
		return p.elementwiseSeparable(st, b)
	case rowwiseOps[op] && p.g.Opset < 7 && legacyAlignsFirst(n, r0):
		// B's dims start at A's first axis, the one items are stacked on.
		return false
	case rowwiseOps[op]:
		return p.elementwiseSeparable(st, b)
	case op == "MatMul":
		ra, rb := p.rankOf(in(0)), p.rankOf(in(1))
		if ra < 2 || rb < 1 {
			return false
		}
		if batched(0) && !batched(1) {
			return rb <= 2 || rb < ra
		}
		return batched(0) && batched(1) && ra == rb && ra >= 3
	case op == "Gemm":
		ta, _ := n.Int("transA", 0)
		if ta != 0 || !onlyFirst() {
			return false
		}
		return in(2) < 0 || p.rankOf(in(2)) < 2 || (p.rankOf(in(2)) == 2 && p.values[in(2)].shape[0] == 1)
	case op == "BatchNormalization" && trainingBN(n):
		// Its statistics are the whole batch's.
		return false
	case op == "Conv", op == "ConvTranspose", op == "MaxPool", op == "AveragePool", op == "LpPool",
		op == "GlobalAveragePool", op == "GlobalMaxPool", op == "BatchNormalization",
		op == "InstanceNormalization", op == "DepthToSpace", op == "SpaceToDepth":
		return onlyFirst() && len(st.out) == 1
	case op == "Softmax", op == "LogSoftmax", op == "ArgMax", op == "ArgMin":
		def := int64(-1)
		if (op == "Softmax" || op == "LogSoftmax") && p.g.Opset < 13 {
			def = 1
		}
		if op == "ArgMax" || op == "ArgMin" {
			def = 0
		}
		a, _ := n.Int("axis", def)
		return onlyFirst() && stackAxis(a, r0) >= 1
	case op == "LayerNormalization", op == "RMSNormalization":
		a, _ := n.Int("axis", -1)
		return onlyFirst() && stackAxis(a, r0) >= 1
	case op == "Attention" && (n.Domain == "" || n.Domain == "ai.onnx" || n.Domain == model.EwDomain):
		return p.attentionSeparable(st, b)
	case op == "Expand":
		// A constant shape that leaves axis 0 to the input.
		shape, ok := p.constInts(in(1))
		return onlyFirst() && ok && r0 >= 1 && len(shape) <= r0 && (len(shape) < r0 || shape[0] == 1)
	case op == "Flatten":
		a, _ := n.Int("axis", 1)
		return onlyFirst() && stackAxis(a, r0+1) == 1
	case op == "Transpose":
		perm, _ := n.Ints("perm", nil)
		return onlyFirst() && len(perm) > 0 && perm[0] == 0
	case op == "Concat", op == "Split":
		a, _ := n.Int("axis", 0)
		if stackAxis(a, r0) < 1 {
			return false
		}
		if op == "Split" {
			return onlyFirst()
		}
		for i := range st.in {
			if !batched(i) {
				return false
			}
		}
		return true
	case op == "Gather":
		a, _ := n.Int("axis", 0)
		if batched(0) && !batched(1) {
			return stackAxis(a, r0) >= 1
		}
		return !batched(0) && batched(1) && stackAxis(a, r0) == 0
	case op == "Reshape":
		spec, ok := p.constInts(in(1))
		if !onlyFirst() || !ok || len(spec) == 0 {
			return false
		}
		if spec[0] == 0 {
			az, _ := n.Int("allowzero", 0)
			return az == 0
		}
		if spec[0] != -1 || r0 < 1 {
			return false
		}
		// [-1, d1, d2...]: items stay whole when the rest is fixed and
		// divides an item's elements.
		item := 1
		for _, d := range p.values[in(0)].shape[1:] {
			if d < 0 {
				return false
			}
			item *= d
		}
		rest := int64(1)
		for _, d := range spec[1:] {
			if d <= 0 {
				return false
			}
			rest *= d
		}
		return int64(item)%rest == 0
	case op == "Squeeze", op == "Unsqueeze", op == "ReduceMean", op == "ReduceSum", op == "ReduceMax",
		op == "ReduceMin", op == "ReduceProd", op == "ReduceL1", op == "ReduceL2", op == "ReduceSumSquare",
		op == "ReduceLogSumExp":
		return onlyFirst() && p.axesAvoidZero(st, n)
	case op == "Slice":
		if !onlyFirst() || p.g.Opset < 10 {
			return false
		}
		axes, ok := p.constInts(in(3))
		if !ok {
			return false
		}
		for _, a := range axes {
			if stackAxis(a, r0) < 1 {
				return false
			}
		}
		return true
	case op == "Pad":
		if !onlyFirst() || p.g.Opset < 11 || in(3) >= 0 {
			return false
		}
		pads, ok := p.constInts(in(1))
		return ok && len(pads) == 2*r0 && r0 > 0 && pads[0] == 0 && pads[r0] == 0
	case op == "Resize":
		if !onlyFirst() || p.g.Opset < 11 || in(3) >= 0 {
			return false
		}
		s := in(2)
		if s < 0 || p.values[s].kind != kindConst {
			return false
		}
		sc, err := p.values[s].c.Float64s()
		return err == nil && len(sc) == r0 && sc[0] == 1
	}
	return false
}

// attentionSeparable reports whether an Attention node (opset 23's, or
// the one model.FuseAttention writes) computes each batch item alone:
// Q, K and V carry the batch, there is no past and no nonpad_kv_seqlen,
// Y is its only output, and the mask carries the batch or broadcasts
// over it.
func (p *program) attentionSeparable(st *step, b []bool) bool {
	in := func(i int) int {
		if i < len(st.in) {
			return st.in[i]
		}
		return -1
	}
	for i := 0; i < 3; i++ {
		if v := in(i); v < 0 || !b[v] {
			return false
		}
	}
	for i := 4; i < 7; i++ {
		if in(i) >= 0 {
			return false
		}
	}
	for _, v := range st.out[1:] {
		if v >= 0 {
			return false
		}
	}
	if m := in(3); m >= 0 && !b[m] {
		r := p.rankOf(m)
		return r >= 0 && (r < 4 || p.values[m].shape[0] == 1)
	}
	return true
}

// axesAvoidZero reports whether a Squeeze, Unsqueeze or Reduce node's
// axes are known and leave axis 0 alone.
func (p *program) axesAvoidZero(st *step, n *model.Node) bool {
	axes, _ := n.Ints("axes", nil)
	if axes == nil && len(st.in) > 1 {
		var ok bool
		if axes, ok = p.constInts(st.in[1]); !ok {
			return false
		}
	}
	if len(axes) == 0 {
		return false
	}
	rank := p.rankOf(st.in[0])
	if n.OpType == "Unsqueeze" {
		rank += len(axes)
	}
	for _, a := range axes {
		if stackAxis(a, rank) < 1 {
			return false
		}
	}
	return true
}

// inferStacked runs a batch as one stacked call. It returns false, nil
// when the items' shapes differ, so the caller runs them one by one.
func (m *Model[In, Out]) inferStacked(in batch.Batch[In], out []Out) (bool, error) {
	x := m.x
	count := in.Len()
	for j := range m.prog.inputs {
		dt, shape0, _, err := m.view(x, in.At(0), j)
		if err != nil {
			return false, err
		}
		if len(shape0) == 0 {
			return false, nil
		}
		var total int
		for i := 0; i < count; i++ {
			dti, shape, data, err := m.view(x, in.At(i), j)
			if err != nil {
				return false, err
			}
			if dti != dt || !sameShape(shape, shape0) {
				return false, nil
			}
			total += len(data)
		}
		if cap(x.stage[j]) < total {
			x.stage[j] = alignedBytes(total)
		}
		buf := x.stage[j][:total]
		off := 0
		for i := 0; i < count; i++ {
			_, _, data, _ := m.view(x, in.At(i), j)
			off += copy(buf[off:], data)
		}
		x.stageShape[j] = append(x.stageShape[j][:0], shape0...)
		x.stageShape[j][0] *= count
		if err := x.setInput(j, dt, x.stageShape[j], buf); err != nil {
			return false, err
		}
	}
	if err := x.run(); err != nil {
		return true, err
	}
	for o := range m.prog.outputs {
		t := x.output(o)
		if len(t.shape) == 0 || t.shape[0]%count != 0 {
			return true, shapeErr(m.prog.steps[len(m.prog.steps)-1].n, "stacked output %d has shape %v, not a multiple of the batch of %d", o, t.shape, count)
		}
	}
	for i := range out {
		m.write(x, &out[i], i, count)
	}
	return true, nil
}

// legacyAlignsFirst reports whether n, a two-input elementwise node of an
// opset before 7, broadcasts its input B from axis 0 of input A (of rank
// r, -1 when unknown) with the broadcast and axis attributes of those
// opsets, rather than along A's trailing dims.
func legacyAlignsFirst(n *model.Node, r int) bool {
	if bc, _ := n.Int("broadcast", 0); bc == 0 {
		return false
	}
	a := n.Attr("axis")
	if a == nil {
		return false
	}
	if r < 0 {
		return true
	}
	ax := a.I
	if ax < 0 {
		ax += int64(r)
	}
	return ax == 0
}

// trainingBN reports whether a BatchNormalization node computes its
// statistics from its input (training_mode=1).
func trainingBN(n *model.Node) bool {
	t, _ := n.Int("training_mode", 0)
	return t != 0
}
