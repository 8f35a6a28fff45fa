package cpu

import "github.com/lintel-ml/lintel/payload"

// qdwExactMax bounds the partial sums of dwExact: below it every integer
// is a float32, so float32 sums of integer products are exact in any
// order.
const qdwExactMax = 1 << 24

// qconvDW is the float32 scratch of qconvKernel.dwExact.
type qconvDW struct {
	plan         dwPlan
	x, w, b, y   []float32
	xTable       [256]float32
	perChannelZW bool
}

// dwExact runs a depthwise QLinearConv (one input channel a group, the
// geometry dwPlan takes) as the float32 depthwise convolution of
// x − x_zero_point by w − w_zero_point from the int32 bias, into acc. It
// is exact, the same int32 sums as the integer GEMM: every partial sum
// is an integer of magnitude below 2²⁴, which it checks per output
// channel (|bias| + Σ|w − zw|·max|x − zx|); it reports false, doing
// nothing, when a channel fails the check or the case is another.
func (k *qconvKernel) dwExact(in []*tensor, zx, zw, acc []int32) bool {
	x, w := in[0], in[k.wi]
	g := &k.g
	if k.group != k.c || k.c == 0 || !dwFits(g) || len(zx) != 1 || k.m%k.c != 0 {
		return false
	}
	taps := size3(g.k)
	if len(w.data) < k.m*taps {
		return false
	}
	var bias []int32
	if b := optIn(in, 8); b != nil {
		if b.dt != payload.Int32 || b.numel() != k.m {
			return false
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
			return false
		}
	}
	tab := &d.xTable
	for b := range tab {
		v := int32(b)
		if x.dt == payload.Int8 {
			v = int32(int8(b))
		}
		tab[b] = float32(v - z)
	}
	xf := growF32(&d.x, x.numel())
	for i, b := range x.data[:len(xf)] {
		xf[i] = tab[b]
	}
	yf := growF32(&d.y, len(acc))
	d.plan.conv(k.qg.pool, g, xf, wf, bf, yf, k.nb, k.m, k.m/k.c, nil)
	for i, v := range yf {
		acc[i] = int32(v)
	}
	return true
}
