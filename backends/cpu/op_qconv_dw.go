package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// qdwExactMax bounds the partial sums of dwQLinear: below it every integer
// is a float32, so float32 sums of integer products are exact in any
// order.
const qdwExactMax = 1 << 24

// qdwChunkFloats bounds the float32 input and output planes that one
// step of dwQLinear converts, convolves and requantizes: they stay in
// L2 between the three.
const qdwChunkFloats = 32 << 10

// qconvDW is the state of qconvKernel.dwQLinear: the weights and bias
// as float32, and per part a depthwise plan and the float32 planes of
// its chunks.
type qconvDW struct {
	w, b  []float32
	parts []qdwPart
	call  qdwCall
}

// qdwPart is one part's plan and scratch.
type qdwPart struct {
	plan dwPlan
	x, y []float32
}

// qdwCall is one call of dwQLinear, read by every part.
type qdwCall struct {
	k              *qconvKernel
	x, y           *tensor
	rq             qRequant
	z              int32
	units, perItem int
	chunk, parts   int
}

// dwQLinear runs a depthwise QLinearConv (one input channel a group, the
// geometry dwPlan takes) as the float32 depthwise convolution of
// x − x_zero_point by w − w_zero_point from the int32 bias, and
// requantizes its float32 sums into y. The sums are exact, the integer
// GEMM's int32 sums: every partial sum is an integer of magnitude below
// 2²⁴, which it checks per output channel (|bias| + Σ|w − zw|·max|x −
// zx|). It works a few input planes at a time (qdwChunkFloats), so that
// each plane is converted, convolved and requantized while it is in
// cache, and splits the planes across the pool. It reports false, doing
// nothing, when a channel fails the check or the case is another.
func (k *qconvKernel) dwQLinear(in []*tensor, y *tensor, zx, zw []int32) (bool, error) {
	x, w := in[0], in[k.wi]
	g := &k.g
	if k.group != k.c || k.c == 0 || !dwFits(g) || len(zx) != 1 || k.m%k.c != 0 {
		return false, nil
	}
	taps := size3(g.k)
	if len(w.data) < k.m*taps {
		return false, nil
	}
	var bias []int32
	if b := optIn(in, 8); b != nil {
		if b.dt != payload.Int32 || b.numel() != k.m {
			return false, nil
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
			return false, nil
		}
	}
	rq, err := k.requantOf(in, y, false)
	if err != nil {
		return false, err
	}
	mult := k.m / k.c
	inSz, outSz := size3(g.in), size3(g.out)
	units := k.nb * k.c
	chunk := max(1, qdwChunkFloats/max(inSz+mult*outSz, 1))
	parts := 1
	if pool := k.qg.pool; pool != nil {
		parts = min(pool.size(), ceilDiv(units, chunk), max(1, units*mult*outSz*taps/(1<<16)))
	}
	for len(d.parts) < parts {
		d.parts = append(d.parts, qdwPart{})
	}
	d.call = qdwCall{k: k, x: x, y: y, rq: rq, z: z, units: units, perItem: k.c, chunk: chunk, parts: parts}
	if parts == 1 {
		d.runPart(0)
	} else {
		k.qg.pool.run(d, parts)
	}
	d.call = qdwCall{}
	return true, nil
}

// runPart converts, convolves and requantizes input planes
// [part*units/parts, (part+1)*units/parts) of the current call, a chunk
// of planes of one batch item at a time.
func (d *qconvDW) runPart(part int) {
	cl := &d.call
	k := cl.k
	g := &k.g
	p := &d.parts[part]
	taps := size3(g.k)
	mult := k.m / k.c
	inSz, outSz := size3(g.in), size3(g.out)
	u1 := (part + 1) * cl.units / cl.parts
	for u0 := part * cl.units / cl.parts; u0 < u1; {
		// Within one batch item: its channels index the weights.
		c0 := u0 % cl.perItem
		n := min(cl.chunk, u1-u0, cl.perItem-c0)
		xf := growF32(&p.x, n*inSz)
		yf := growF32(&p.y, n*mult*outSz)
		q8ToF32(xf, cl.x.data[u0*inSz:(u0+n)*inSz], cl.z, 1, cl.x.dt == payload.Int8)
		o0 := c0 * mult
		p.plan.conv(nil, g, xf, d.w[o0*taps:], d.b[o0:], yf, 1, n*mult, mult, nil)
		for j := range n * mult {
			m := cl.rq.mult[min(o0+j, len(cl.rq.mult)-1)]
			at := (u0*mult + j) * outSz
			requantF32Run(cl.y.data[at:at+outSz], yf[j*outSz:(j+1)*outSz], m, cl.rq.zp, cl.rq.lo, cl.rq.hi)
		}
		u0 += n
	}
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
