package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// qavgpoolKernel runs com.microsoft QLinearAveragePool
// (model.QLinearAveragePoolAttrs) as ONNX Runtime's CPU kernel computes
// it: X dequantized (x_scale·(x − x_zero_point) in float32, through a
// 256-entry table), each window's values that lie in the input summed in
// float32 in row-major order, the sum divided by the kernel's size with
// count_include_pad or by the number of values summed without, and
// quantized as round-half-even(sum/y_scale + y_zero_point), saturated. A
// window the size of the whole image without pads runs
// QLinearGlobalAveragePool's integer average, as ONNX Runtime falls back
// to it.
type qavgpoolKernel struct {
	n   *model.Node
	a   *model.QLinearAveragePoolAttrs
	gap qgapKernel
	g   geom
	xf  []float32
}

func (k *qavgpoolKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	nd := len(k.a.Window.KernelShape)
	if len(x.shape) != nd+2 {
		return shapeErr(k.n, "X has shape %v for kernel_shape %v", x.shape, k.a.Window.KernelShape)
	}
	sp := x.shape[2:]
	if k.a.ChannelsLast {
		sp = x.shape[1 : nd+1]
	}
	kern := make([]int, 0, 3)
	global := true
	for i, d := range k.a.Window.KernelShape {
		kern = append(kern, int(d))
		global = global && int(d) == sp[i]
	}
	if err := fillWindow(k.n, &k.a.Window, &k.g, sp, kern); err != nil {
		return err
	}
	g := &k.g
	for i := range maxSpatial {
		global = global && g.pb[i] == 0 && g.pe[i] == 0
	}
	if global {
		return k.gap.run(in, out)
	}
	p, err := qParamsAt(k.n, in, 1, 2, 3, 4)
	if err != nil {
		return err
	}
	s8 := x.dt == payload.Int8
	var table [256]float32
	for i := range table {
		v := int32(i)
		if s8 {
			v = int32(int8(i))
		}
		table[i] = p.xs * float32(v-p.xz)
	}
	xf := growF32(&k.xf, x.numel())
	for i, b := range x.data[:len(xf)] {
		xf[i] = table[b]
	}
	lo, hi := int32(0), int32(math.MaxUint8)
	if s8 {
		lo, hi = math.MinInt8, math.MaxInt8
	}
	// nearbyintf then a cast to int32, as x86 rounds and converts: NaN
	// and values out of int32's range give its lowest.
	quant := func(v float32) byte { return byte(max(lo, min(hi, cvtps(v/p.ys+float32(p.yz))))) }
	ksize := float32(g.k[0] * g.k[1] * g.k[2])
	inSz, outSz := g.in[0]*g.in[1]*g.in[2], g.out[0]*g.out[1]*g.out[2]
	nb, ch := x.shape[0], x.shape[1]
	cstride, pstride := inSz, 1 // a channel's plane, a position's step
	ocs, ops := outSz, 1
	if k.a.ChannelsLast {
		ch = x.shape[len(x.shape)-1]
		cstride, pstride, ocs, ops = 1, ch, 1, ch
	}
	for b := range nb {
		xb, yb := xf[b*ch*inSz:], y.data[b*ch*outSz:]
		for c := range ch {
			xc, yc := xb[c*cstride:], yb[c*ocs:]
			o := 0
			for o0 := range g.out[0] {
				s0, e0 := winSpan(o0, g, 0)
				for o1 := range g.out[1] {
					s1, e1 := winSpan(o1, g, 1)
					for o2 := range g.out[2] {
						s2, e2 := winSpan(o2, g, 2)
						var sum float32
						for i0 := s0; i0 < e0; i0++ {
							for i1 := s1; i1 < e1; i1++ {
								for i2 := s2; i2 < e2; i2++ {
									sum += xc[((i0*g.in[1]+i1)*g.in[2]+i2)*pstride]
								}
							}
						}
						div := ksize
						if !k.a.CountIncludePad {
							div = float32((e0 - s0) * (e1 - s1) * (e2 - s2))
						}
						yc[o*ops] = quant(sum / div)
						o++
					}
				}
			}
		}
	}
	return nil
}

// winSpan returns the input positions [s, e) of window o along lifted
// dim d of g that lie in the input, as ONNX Runtime's pooling loops clip
// them: from o·stride − pad_begin, kernel long, within [0, in).
func winSpan(o int, g *geom, d int) (s, e int) {
	s = o*g.s[d] - g.pb[d]
	e = min(s+g.k[d], g.in[d])
	return max(s, 0), e
}

func init() {
	registerMS("QLinearAveragePool", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.QLinearAveragePoolAttrs)
		dt := c.inType(0)
		if !q8(dt) {
			return nil, c.unsupported("X of element type %s (supported: int8, uint8)", dt)
		}
		for _, i := range []int{2, 4} {
			if c.n.Input(i) != "" && c.inType(i) != dt {
				return nil, c.invalid("%s of element type %s for X of %s", c.op.InputNames[i], c.inType(i), dt)
			}
		}
		if err := qFloatScales(c, 1, 3); err != nil {
			return nil, err
		}
		if len(a.Window.KernelShape) > maxSpatial {
			return nil, c.unsupported("%d spatial dims (at most %d)", len(a.Window.KernelShape), maxSpatial)
		}
		return &qavgpoolKernel{n: c.n, a: a, gap: qgapKernel{n: c.n, last: a.ChannelsLast}}, nil
	})
}
