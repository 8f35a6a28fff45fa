package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// qdwExactMax bounds the partial sums of dwExact: below it every integer
// is a float32, so float32 sums of integer products are exact in any
// order.
const qdwExactMax = 1 << 24

// qconvDW is the float32 scratch of qconvKernel.dwExact.
type qconvDW struct {
	plan       dwPlan
	x, w, b, y []float32
}

// dwExact runs a depthwise QLinearConv (one input channel a group, the
// geometry dwPlan takes) as the float32 depthwise convolution of
// x − x_zero_point by w − w_zero_point from the int32 bias, and returns
// its float32 sums. They are exact, the integer GEMM's int32 sums: every partial sum
// is an integer of magnitude below 2²⁴, which it checks per output
// channel (|bias| + Σ|w − zw|·max|x − zx|); it returns nil, doing
// nothing, when a channel fails the check or the case is another.
func (k *qconvKernel) dwExact(in []*tensor, zx, zw []int32, n int) []float32 {
	x, w := in[0], in[k.wi]
	g := &k.g
	if k.group != k.c || k.c == 0 || !dwFits(g) || len(zx) != 1 || k.m%k.c != 0 {
		return nil
	}
	taps := size3(g.k)
	if len(w.data) < k.m*taps {
		return nil
	}
	var bias []int32
	if b := optIn(in, 8); b != nil {
		if b.dt != payload.Int32 || b.numel() != k.m {
			return nil
		}
		bias = b.i32()
	}
	d := &k.dw
	z := zx[0]
	maxX := max(z, 255-z)
	if x.dt == payload.Int8 {
		maxX = max(z+128, 127-z)
	}
	wf := growF32(&d.w, k.m*taps)
	bf := growF32(&d.b, k.m)
	wS8 := w.dt == payload.Int8
	for o := range k.m {
		zo := zw[0]
		if len(zw) > 1 {
			zo = zw[o]
		}
		var sum int64
		if bias != nil {
			sum = int64(bias[o])
			if sum < 0 {
				sum = -sum
			}
			bf[o] = float32(bias[o])
		} else {
			bf[o] = 0
		}
		for t, v := range w.data[o*taps : (o+1)*taps] {
			q := int32(v)
			if wS8 {
				q = int32(int8(v))
			}
			q -= zo
			wf[o*taps+t] = float32(q)
			sum += int64(max(q, -q)) * int64(maxX)
		}
		if sum >= qdwExactMax {
			return nil
		}
	}
	xf := growF32(&d.x, x.numel())
	q8ToF32(xf, x.data, z, 1, x.dt == payload.Int8)
	yf := growF32(&d.y, n)
	d.plan.conv(k.qg.pool, g, xf, wf, bf, yf, k.nb, k.m, k.m/k.c, nil)
	return yf
}

// qconvF32 is a QLinearConv's float32 twin (qconvKernel.buildF32): the
// Conv kernel over x − x_zero_point with the constant weights
// w − w_zero_point and bias as float32.
type qconvF32 struct {
	k      *convKernel
	w, b   *tensor
	x, y   []float32
	xt, yt tensor
	ins    [3]*tensor
	outs   [1]*tensor
}

// buildF32 gives QLinearConv k, of constant weights w, a float32 twin
// when its sums are exact in float32 whatever x: every output channel's
// |bias| + Σ|w − zw|·255 below 2²⁴ (then every partial sum, in any order,
// is an integer a float32 holds). The weight zero points and the bias
// must be constants.
func (k *qconvKernel) buildF32(c *buildCtx, w *model.Tensor) error {
	zwT := c.constInput(5)
	if zwT == nil || !q8(zwT.DType) || (zwT.NumElems() != 1 && zwT.NumElems() != k.pwm) || len(zwT.Raw) != zwT.NumElems() {
		return nil
	}
	var bias []int32
	if c.n.Input(8) != "" {
		bT := c.constInput(8)
		if bT == nil || bT.DType != payload.Int32 || bT.NumElems() != k.pwm {
			return nil
		}
		v, err := model.View[int32](bT)
		if err != nil {
			return nil
		}
		bias = v
	}
	a, ok := c.rule.(*model.QLinearConvAttrs)
	if !ok {
		return nil
	}
	// The weights as given: k.pwk may count added channels.
	m, kk := k.pwm, payload.NumElems(w.Shape[1:])
	wf := make([]float32, m*kk)
	bf := make([]float32, m)
	wS8, zS8 := w.DType == payload.Int8, zwT.DType == payload.Int8
	for o := range m {
		zb := zwT.Raw[min(o, len(zwT.Raw)-1)]
		zo := int32(zb)
		if zS8 {
			zo = int32(int8(zb))
		}
		var sum int64
		if bias != nil {
			sum = int64(bias[o])
			sum = max(sum, -sum)
			bf[o] = float32(bias[o])
		}
		for t, v := range w.Raw[o*kk : (o+1)*kk] {
			q := int32(v)
			if wS8 {
				q = int32(int8(v))
			}
			q -= zo
			wf[o*kk+t] = float32(q)
			sum += int64(max(q, -q)) * 255
		}
		if sum >= qdwExactMax {
			return nil
		}
	}
	wName, bName := c.n.Input(3)+"\x00f32", c.n.Input(3)+"\x00f32bias"
	g := model.NewGraph()
	g.Opset = c.opset
	g.Initializers[wName] = model.NewTensor(wName, w.Shape, wf)
	g.Initializers[bName] = model.NewTensor(bName, []int{m}, bf)
	n := &model.Node{Name: c.n.Name, OpType: "Conv", Inputs: []string{c.n.Input(0), wName, bName}, Outputs: c.n.Outputs, Attrs: c.n.Attrs}
	xi := c.in[0]
	xi.DType = payload.Float32
	oi := model.ValueInfo{Name: c.n.Outputs[0], DType: payload.Float32}
	if len(c.out) > 0 {
		oi = c.out[0]
		oi.DType = payload.Float32
	}
	sc := &buildCtx{g: g, n: n, opts: c.opts, opset: c.opset, gemm: c.gemm,
		in:  []model.ValueInfo{xi, {Name: wName, DType: payload.Float32, Shape: w.Shape, RankKnown: true}, {Name: bName, DType: payload.Float32, Shape: []int{m}, RankKnown: true}},
		out: []model.ValueInfo{oi}, rule: (*model.ConvAttrs)(a)}
	ck, err := buildConv(sc)
	if err != nil {
		return nil // the integer path runs it
	}
	conv, ok := ck.(*convKernel)
	if !ok {
		return nil
	}
	k.f32 = &qconvF32{k: conv,
		w: &tensor{dt: payload.Float32, shape: w.Shape, data: payload.AsBytes(wf)},
		b: &tensor{dt: payload.Float32, shape: []int{m}, data: payload.AsBytes(bf)}}
	return nil
}

// run computes QLinearConv's sums, bias included, by its float32 twin
// and returns them: n float32 values, exact integers.
func (f *qconvF32) run(x *tensor, zx int32, yShape []int, n int) ([]float32, error) {
	xs := growF32(&f.x, x.numel())
	q8ToF32(xs, x.data, zx, 1, x.dt == payload.Int8)
	ys := growF32(&f.y, n)
	f.xt = tensor{dt: payload.Float32, shape: x.shape, data: payload.AsBytes(xs)}
	f.yt = tensor{dt: payload.Float32, shape: yShape, data: payload.AsBytes(ys)}
	f.ins = [3]*tensor{&f.xt, f.w, f.b}
	f.outs = [1]*tensor{&f.yt}
	if err := f.k.shape(f.ins[:], f.outs[:]); err != nil {
		return nil, err
	}
	if err := f.k.run(f.ins[:], f.outs[:]); err != nil {
		return nil, err
	}
	return ys, nil
}
