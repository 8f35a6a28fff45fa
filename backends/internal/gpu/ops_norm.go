package gpu

import "github.com/lintel-ml/lintel/payload"

func init() {
	register(buildSoftmax, "Softmax", "LogSoftmax")
	register(buildLayerNorm, "LayerNormalization")
	register(buildBatchNorm, "BatchNormalization")
	register(buildReduce, "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin")
	register(buildGlobalPool, "GlobalAveragePool", "GlobalMaxPool")
	register(buildArgMax, "ArgMax")
}

// f32io returns input 0 and output 0, both float32.
func (c *buildCtx) f32io() (*val, *val, error) {
	x, err := c.input(0)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.output()
	if err != nil {
		return nil, nil, err
	}
	if err := c.want(x, payload.Float32); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func buildSoftmax(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	r := len(x.shape)
	def := int64(-1)
	if c.opset < 13 {
		def = 1
	}
	ax, err := c.n.Int("axis", def)
	if err != nil {
		return err
	}
	a, err := c.axisOf(ax, r)
	if err != nil {
		return err
	}
	var outer, mid, inner int
	if c.opset < 13 {
		// Before opset 13 the input is coerced to 2-D at axis.
		outer, _, _ = splitAt(x.shape, a)
		mid = x.numel() / max(outer, 1)
		inner = 1
		if outer == 0 {
			mid = 0
		}
	} else {
		outer, mid, inner = splitAt(x.shape, a)
	}
	sa := SoftmaxArgs{Outer: u32(outer), Axis: u32(mid), Inner: u32(inner)}
	if c.n.OpType == "LogSoftmax" {
		sa.UseLog = 1
	}
	if x.numel() == 0 {
		return nil
	}
	c.emit1D(KSoftmax, Pack(nil, &sa), outer*inner, x, y)
	return nil
}

func buildLayerNorm(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	if err := c.only(1); err != nil {
		return err
	}
	scale, err := c.input(1)
	if err != nil {
		return err
	}
	ax, err := c.n.Int("axis", -1)
	if err != nil {
		return err
	}
	a, err := c.axisOf(ax, len(x.shape))
	if err != nil {
		return err
	}
	eps, err := c.n.Float("epsilon", 1e-5)
	if err != nil {
		return err
	}
	rows, _, _ := splitAt(x.shape, a)
	cols := x.numel() / max(rows, 1)
	la := LayerNormArgs{Rows: u32(rows), Cols: u32(cols), Eps: eps}
	if scale.numel() != cols {
		return c.unsupported("scale of shape %v for %d normalized elements", scale.shape, cols)
	}
	bias := scale
	if len(c.in) > 2 && c.in[2] != nil {
		bias = c.in[2]
		if bias.numel() != cols {
			return c.unsupported("bias of shape %v for %d normalized elements", bias.shape, cols)
		}
		la.HasBias = 1
	}
	for _, v := range []*val{scale, bias} {
		if err := c.want(v, payload.Float32); err != nil {
			return err
		}
	}
	if x.numel() == 0 {
		return nil
	}
	c.emit1D(KLayerNorm, Pack(nil, &la), rows, x, scale, bias, y)
	return nil
}

func buildBatchNorm(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	if err := c.only(1); err != nil {
		return err
	}
	if tm, err := c.n.Int("training_mode", 0); err != nil {
		return err
	} else if tm != 0 {
		return c.unsupported("training_mode 1")
	}
	eps, err := c.n.Float("epsilon", 1e-5)
	if err != nil {
		return err
	}
	if len(x.shape) < 2 {
		return c.invalid("input of shape %v has no channel axis", x.shape)
	}
	ch := x.shape[1]
	var ps []*val
	for i := 1; i <= 4; i++ {
		v, err := c.input(i)
		if err != nil {
			return err
		}
		if err := c.want(v, payload.Float32); err != nil {
			return err
		}
		if v.numel() != ch {
			return c.invalid("%q has %d elements for %d channels", v.name, v.numel(), ch)
		}
		ps = append(ps, v)
	}
	_, _, inner := splitAt(x.shape, 1)
	ba := BatchNormArgs{N: u32(x.numel()), C: u32(ch), Inner: u32(inner), Eps: eps}
	if x.numel() == 0 {
		return nil
	}
	c.emit1D(KBatchNorm, Pack(nil, &ba), x.numel(), x, ps[0], ps[1], ps[2], ps[3], y)
	return nil
}

// emitReduce reduces x over the axes marked in red into y.
func (c *buildCtx) emitReduce(op uint32, x, y *val, red []bool) error {
	if err := c.rankOK(x); err != nil {
		return err
	}
	xs := contiguousStrides(x.shape)
	r := len(x.shape)
	oshape, ostride, rshape, rstride := make([]int, r), make([]int, r), make([]int, r), make([]int, r)
	nred := 1
	for i := range r {
		if red[i] {
			oshape[i], rshape[i], rstride[i] = 1, x.shape[i], xs[i]
			nred *= x.shape[i]
		} else {
			oshape[i], ostride[i], rshape[i] = x.shape[i], xs[i], 1
		}
	}
	if payload.NumElems(oshape) != y.numel() {
		return c.invalid("reducing %v gives %d elements, output %v", x.shape, payload.NumElems(oshape), y.shape)
	}
	ra := ReduceArgs{N: u32(y.numel()), Op: op, Rank: u32(r), NRed: u32(nred)}
	fill(ra.OShape[:], oshape)
	fill(ra.OStride[:], ostride)
	fill(ra.RShape[:], rshape)
	fill(ra.RStride[:], rstride)
	if y.numel() == 0 {
		return nil
	}
	c.emit1D(KReduce, Pack(nil, &ra), y.numel(), x, y)
	return nil
}

var reduceCodes = map[string]uint32{"ReduceSum": RSum, "ReduceMean": RMean, "ReduceMax": RMax, "ReduceMin": RMin}

func buildReduce(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	r := len(x.shape)
	var axes []int64
	fromInput := c.opset >= 18 || (c.n.OpType == "ReduceSum" && c.opset >= 13)
	if fromInput {
		if len(c.in) > 1 && c.in[1] != nil {
			if axes, err = c.constInts(1); err != nil {
				return err
			}
		}
	} else if axes, err = c.n.Ints("axes", nil); err != nil {
		return err
	}
	noop, err := c.n.Int("noop_with_empty_axes", 0)
	if err != nil {
		return err
	}
	red := make([]bool, r)
	if len(axes) == 0 {
		if noop != 0 {
			return c.view(0, 0)
		}
		for i := range red {
			red[i] = true
		}
	}
	for _, ax := range axes {
		a, err := c.axisOf(ax, r)
		if err != nil {
			return err
		}
		red[a] = true
	}
	return c.emitReduce(reduceCodes[c.n.OpType], x, y, red)
}

func buildGlobalPool(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	if len(x.shape) < 3 {
		return c.invalid("input of shape %v has no spatial axes", x.shape)
	}
	red := make([]bool, len(x.shape))
	for i := 2; i < len(red); i++ {
		red[i] = true
	}
	op := RMean
	if c.n.OpType == "GlobalMaxPool" {
		op = RMax
	}
	return c.emitReduce(op, x, y, red)
}

func buildArgMax(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	ax, err := c.n.Int("axis", 0)
	if err != nil {
		return err
	}
	a, err := c.axisOf(ax, len(x.shape))
	if err != nil {
		return err
	}
	last, err := c.n.Int("select_last_index", 0)
	if err != nil {
		return err
	}
	outer, mid, inner := splitAt(x.shape, a)
	if mid == 0 {
		return c.invalid("ArgMax over an empty axis")
	}
	aa := ArgMaxArgs{Outer: u32(outer), Axis: u32(mid), Inner: u32(inner)}
	if last != 0 {
		aa.SelectLast = 1
	}
	if y.numel() == 0 {
		return nil
	}
	c.emit1D(KArgMax, Pack(nil, &aa), outer*inner, x, y)
	return nil
}
