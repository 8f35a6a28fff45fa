package model

import (
	"math"
	"math/big"

	"github.com/lintel-ml/lintel/payload"
)

// Element-type classes of the ops inference knows.
var (
	unaryOps = setOf("Sqrt", "Exp", "Log", "Neg", "Abs", "Erf", "Reciprocal", "Floor", "Ceil", "Round",
		"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
		"Sign", "Relu", "LeakyRelu", "Elu", "Selu", "Sigmoid", "Tanh", "Softplus", "Softsign",
		"HardSigmoid", "HardSwish", "Gelu", "Mish", "Celu", "ThresholdedRelu", "Shrink",
		"Identity", "Softmax", "LogSoftmax", "Hardmax", "Trilu", "Clip", "InstanceNormalization",
		"LpNormalization", "MeanVarianceNormalization", "LRN", "CumSum", "BitwiseNot")
	broadcastOps = setOf("Add", "Sub", "Mul", "Div", "Pow", "Mod", "Min", "Max", "Sum", "Mean",
		"PRelu", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor")
	compareOps = setOf("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor")
	reduceOps  = setOf("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2",
		"ReduceL1", "ReduceSumSquare", "ReduceLogSumExp", "ReduceLogSum")
	poolOps = setOf("MaxPool", "AveragePool", "LpPool")
)

func setOf(ops ...string) map[string]bool {
	m := make(map[string]bool, len(ops))
	for _, o := range ops {
		m[o] = true
	}
	return m
}

func isDefaultDomain(d string) bool { return d == "" || d == "ai.onnx" }

// inferNode returns the types of n's outputs, as far as they are known.
func inferNode(g *Graph, n *Node) ([]ValueInfo, error) {
	outs := make([]ValueInfo, len(n.Outputs))
	if !isDefaultDomain(n.Domain) {
		return outs, nil
	}
	c := &inferCtx{g: g, n: n, opset: g.Opset}
	if c.opset <= 0 {
		c.opset = 21
	}
	desc, rule, err := BindNode(n, c.opset)
	if err != nil {
		return nil, err
	}
	if desc != nil {
		return inferRule(g, n, c.opset, desc, rule)
	}
	if err := checkArity(n, c.opset); err != nil {
		return nil, err
	}
	op := n.OpType
	var v ValueInfo
	switch {
	case unaryOps[op]:
		v = c.same(0)
	case op == "Dropout":
		v = c.same(0)
		if len(outs) > 1 {
			outs[1] = v
			outs[1].DType = payload.Bool
		}
	case op == "Not" || op == "IsNaN" || op == "IsInf":
		v = c.same(0)
		v.DType = payload.Bool
	case broadcastOps[op]:
		idx := make([]int, 0, len(n.Inputs))
		for i, name := range n.Inputs {
			if name != "" {
				idx = append(idx, i)
			}
		}
		v, err = c.broadcast(idx...)
		v.DType = c.dt(0)
	case compareOps[op]:
		v, err = c.broadcast(0, 1)
		v.DType = payload.Bool
	case op == "Where":
		v, err = c.broadcast(0, 1, 2)
		v.DType = c.dt(1)
	case op == "Cast":
		v = c.same(0)
		var to int64
		if to, err = n.Int("to", -1); err == nil && !knownDType(to) {
			err = c.errf("attribute \"to\" missing or not an element type: %d", to)
		}
		v.DType = payload.DType(to)
	case op == "CastLike":
		v = c.same(0)
		v.DType = c.dt(1)
	case reduceOps[op]:
		v, err = c.reduce()
	case op == "ArgMax" || op == "ArgMin":
		v, err = c.argReduce()
	case op == "Shape":
		v, err = c.shapeOp()
	case op == "Size":
		v = ranked(payload.Int64, []int{})
	case op == "NonZero":
		r := c.rank(0)
		if r >= 0 {
			v = ranked(payload.Int64, []int{r, -1})
		} else {
			v = ranked(payload.Int64, []int{-1, -1})
		}
	case op == "Constant":
		v, err = c.constant()
	case op == "ConstantOfShape":
		v, err = c.constantOfShape()
	case op == "Range":
		v, err = c.rangeOp()
	case op == "Reshape":
		v, err = c.reshape()
	case op == "Flatten":
		v, err = c.flatten()
	case op == "Squeeze":
		v, err = c.squeeze()
	case op == "Unsqueeze":
		v, err = c.unsqueeze()
	case op == "Transpose":
		v, err = c.transpose()
	case op == "Concat":
		v, err = c.concat()
	case op == "Split":
		return c.split()
	case op == "Slice":
		v, err = c.slice()
	case op == "Gather":
		v, err = c.gather()
	case op == "GatherElements":
		v = c.same(1)
		v.DType = c.dt(0)
	case op == "Expand":
		v, err = c.expand()
	case op == "Tile":
		v, err = c.tile()
	case op == "Pad":
		v, err = c.pad()
	case op == "Resize" || op == "Upsample":
		v, err = c.resize()
	case op == "DepthToSpace" || op == "SpaceToDepth":
		v, err = c.depthSpace()
	case op == "MatMul":
		v, err = c.matmul()
	case op == "Gemm":
		v, err = c.gemm()
	case op == "Conv":
		v, err = c.conv(false)
	case op == "ConvTranspose":
		v, err = c.conv(true)
	case poolOps[op]:
		v, err = c.pool()
		if len(outs) > 1 {
			outs[1] = v
			outs[1].DType = payload.Int64
		}
	case op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool":
		v = c.same(0)
		for i := 2; i < len(v.Shape); i++ {
			v.Shape[i] = 1
		}
	case op == "BatchNormalization":
		v = c.same(0)
		var ch []int
		if s, ok := c.shape(0); ok && len(s) >= 2 {
			ch = []int{s[1]}
		} else {
			ch = []int{-1}
		}
		for i := 1; i < len(outs); i++ {
			outs[i] = ranked(c.dt(3), copyDims(ch))
		}
	case op == "LayerNormalization":
		v = c.same(0)
		if len(outs) > 1 {
			var st int64
			if st, err = n.Int("stash_type", int64(payload.Float32)); err != nil {
				return nil, err
			}
			if !knownDType(st) {
				return nil, c.errf("stash_type %d is not an element type", st)
			}
			stat := unranked(payload.DType(st))
			if v.RankKnown {
				ax, err := n.Int("axis", -1)
				if err != nil {
					return nil, err
				}
				a, err := c.axis(ax, len(v.Shape))
				if err != nil {
					return nil, err
				}
				s := copyDims(v.Shape)
				for i := a; i < len(s); i++ {
					s[i] = 1
				}
				stat = ranked(payload.DType(st), s)
			}
			for i := 1; i < len(outs) && i < 3; i++ {
				outs[i] = stat
				outs[i].Shape = copyDims(stat.Shape)
			}
		}
	default:
		return outs, nil
	}
	if err != nil {
		return nil, err
	}
	if len(outs) > 0 {
		outs[0] = v
	}
	return outs, nil
}

// knownDType reports whether x names an ONNX element type lintel knows.
func knownDType(x int64) bool { return x >= 1 && x <= int64(payload.BF16) }

// same returns input i's type.
func (c *inferCtx) same(i int) ValueInfo {
	v := c.in(i)
	if v == nil {
		return ValueInfo{}
	}
	if !v.RankKnown {
		return unranked(v.DType)
	}
	return ranked(v.DType, copyDims(v.Shape))
}

// reduce handles the Reduce* ops.
func (c *inferCtx) reduce() (ValueInfo, error) {
	n := c.n
	dt := c.dt(0)
	keep, err := n.Int("keepdims", 1)
	if err != nil {
		return ValueInfo{}, err
	}
	axesFromInput := c.opset >= 18 || (n.OpType == "ReduceSum" && c.opset >= 13)
	var axes []int64
	known := true
	if axesFromInput {
		if n.Input(1) != "" {
			axes, known, err = c.ints(1)
			if err != nil {
				return ValueInfo{}, err
			}
		}
	} else if axes, err = n.Ints("axes", nil); err != nil {
		return ValueInfo{}, err
	}
	noop, err := n.Int("noop_with_empty_axes", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	s, ok := c.shape(0)
	if !ok {
		return unranked(dt), nil
	}
	if !known {
		if keep != 0 {
			return ranked(dt, unknownDims(len(s))), nil
		}
		return unranked(dt), nil
	}
	if len(axes) == 0 {
		if noop != 0 && axesFromInput {
			return ranked(dt, s), nil
		}
		axes = make([]int64, len(s))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	ax, err := c.axes(axes, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	red := make([]bool, len(s))
	for _, a := range ax {
		red[a] = true
	}
	out := []int{}
	for i, d := range s {
		switch {
		case !red[i]:
			out = append(out, d)
		case keep != 0:
			out = append(out, 1)
		}
	}
	return ranked(dt, out), nil
}

func (c *inferCtx) argReduce() (ValueInfo, error) {
	keep, err := c.n.Int("keepdims", 1)
	if err != nil {
		return ValueInfo{}, err
	}
	a, err := c.n.Int("axis", 0)
	if err != nil {
		return ValueInfo{}, err
	}
	s, ok := c.shape(0)
	if !ok {
		return unranked(payload.Int64), nil
	}
	ax, err := c.axis(a, len(s))
	if err != nil {
		return ValueInfo{}, err
	}
	if keep != 0 {
		s[ax] = 1
	} else {
		s = append(s[:ax], s[ax+1:]...)
	}
	return ranked(payload.Int64, s), nil
}

// shapeRange returns Shape's [start, end) clamped to rank r.
func (c *inferCtx) shapeRange(r int) (int, int, error) {
	start, err := c.n.Int("start", 0)
	if err != nil {
		return 0, 0, err
	}
	end, err := c.n.Int("end", math.MaxInt64)
	if err != nil {
		return 0, 0, err
	}
	if c.opset < 15 {
		start, end = 0, math.MaxInt64
	}
	clamp := func(x int64) int {
		if x < 0 {
			x += int64(r)
		}
		return int(min(max(x, 0), int64(r)))
	}
	s, e := clamp(start), clamp(end)
	if e < s {
		e = s
	}
	return s, e, nil
}

func (c *inferCtx) shapeOp() (ValueInfo, error) {
	r := c.rank(0)
	if r < 0 {
		return ranked(payload.Int64, []int{-1}), nil
	}
	s, e, err := c.shapeRange(r)
	if err != nil {
		return ValueInfo{}, err
	}
	return ranked(payload.Int64, []int{e - s}), nil
}

func (c *inferCtx) constant() (ValueInfo, error) {
	t, err := constantTensor(c.n)
	if err != nil || t == nil {
		return ValueInfo{}, err
	}
	if len(t.Shape) > maxRank {
		return ValueInfo{}, c.errf("value rank %d too large", len(t.Shape))
	}
	return ranked(t.DType, copyDims(t.Shape)), nil
}

func (c *inferCtx) constantOfShape() (ValueInfo, error) {
	dt := payload.Float32
	t, err := c.n.TensorAttr("value")
	if err != nil {
		return ValueInfo{}, err
	}
	if t != nil {
		dt = t.DType
	}
	vals, ok, err := c.ints(0)
	if err != nil {
		return ValueInfo{}, err
	}
	if ok {
		if err := c.checkRank(int64(len(vals))); err != nil {
			return ValueInfo{}, err
		}
		s := make([]int, len(vals))
		for i, x := range vals {
			if s[i], err = c.dim(x, "shape"); err != nil {
				return ValueInfo{}, err
			}
		}
		return ranked(dt, s), nil
	}
	if l := c.vecLen(0); l >= 0 {
		if err := c.checkRank(int64(l)); err != nil {
			return ValueInfo{}, err
		}
		return ranked(dt, unknownDims(l)), nil
	}
	return unranked(dt), nil
}

func (c *inferCtx) rangeOp() (ValueInfo, error) {
	dt := c.dt(0)
	unknown := ranked(dt, []int{-1})
	if dt.IsFloat() {
		st, ok1, err := c.floats(0)
		if err != nil {
			return ValueInfo{}, err
		}
		li, ok2, err := c.floats(1)
		if err != nil {
			return ValueInfo{}, err
		}
		de, ok3, err := c.floats(2)
		if err != nil {
			return ValueInfo{}, err
		}
		if !ok1 || !ok2 || !ok3 || len(st) != 1 || len(li) != 1 || len(de) != 1 {
			return unknown, nil
		}
		if de[0] == 0 {
			return ValueInfo{}, c.errf("delta is 0")
		}
		if dt != payload.Float64 {
			// The kernels compute in the element type.
			st[0], li[0], de[0] = float64(float32(st[0])), float64(float32(li[0])), float64(float32(de[0]))
		}
		n := math.Ceil((li[0] - st[0]) / de[0])
		if math.IsNaN(n) || n > 1<<40 {
			return ValueInfo{}, c.errf("range of %v elements", n)
		}
		return ranked(dt, []int{int(max(n, 0))}), nil
	}
	st, ok1, err := c.ints(0)
	if err != nil {
		return ValueInfo{}, err
	}
	li, ok2, err := c.ints(1)
	if err != nil {
		return ValueInfo{}, err
	}
	de, ok3, err := c.ints(2)
	if err != nil {
		return ValueInfo{}, err
	}
	if !ok1 || !ok2 || !ok3 || len(st) != 1 || len(li) != 1 || len(de) != 1 {
		return unknown, nil
	}
	if de[0] == 0 {
		return ValueInfo{}, c.errf("delta is 0")
	}
	// ceil((limit-start)/delta) in exact arithmetic, avoiding overflow.
	diff := new(big.Int).Sub(big.NewInt(li[0]), big.NewInt(st[0]))
	d := big.NewInt(de[0])
	q, m := new(big.Int).QuoRem(diff, d, new(big.Int))
	if m.Sign() != 0 && (m.Sign() > 0) == (d.Sign() > 0) {
		q.Add(q, big.NewInt(1))
	}
	if q.Sign() < 0 {
		q.SetInt64(0)
	}
	if !q.IsInt64() || q.Int64() > 1<<40 {
		return ValueInfo{}, c.errf("range of %v elements", q)
	}
	return ranked(dt, []int{int(q.Int64())}), nil
}
