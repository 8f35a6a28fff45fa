package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// ConvInteger and QLinearConv: a direct convolution of the 8-bit input and
// weights, less their zero points, widened to int32, with the window
// geometry of Conv (fillWindow); padding reads as the input's zero point,
// so it adds nothing. QLinearConv adds its int32 bias and requantizes as
// QLinearMatMul does.
type qconvKernel struct {
	n       *model.Node
	win     *model.Window
	group   int
	wi      int // the weights' input; their zero point is two on
	qlinear bool
	g       geom
	// Set by shape: batch, input channels, output channels.
	nb, c, m int
	// Scratch: widened input and weights, zero points, the int32 sums of
	// QLinearConv, its multipliers and scales.
	x32, w32, zx, zw, acc []int32
	mult                  []float32
	sc                    []float64
}

func (k *qconvKernel) shape(in, out []*tensor) error {
	x, w := in[0].shape, in[k.wi].shape
	if len(x) != len(w) || len(x) < 3 {
		return shapeErr(k.n, "input %v and weights %v", x, w)
	}
	k.nb, k.c, k.m = x[0], x[1], w[0]
	return fillWindow(k.n, k.win, &k.g, x[2:], w[2:])
}

func (k *qconvKernel) run(in, out []*tensor) error {
	x, w := in[0], in[k.wi]
	zx, err := zeroPoints(k.n, optIn(in, 2), 1, "x_zero_point", &k.zx)
	if err != nil {
		return err
	}
	zw, err := zeroPoints(k.n, optIn(in, k.wi+2), k.m, "w_zero_point", &k.zw)
	if err != nil {
		return err
	}
	x32 := growI32(&k.x32, x.numel())
	readQ8(x32, x)
	subCols(x32, zx, 1)
	w32 := growI32(&k.w32, w.numel())
	readQ8(w32, w)
	if len(zw) > 1 {
		subRows(w32, zw, w.numel()/max(k.m, 1), k.m)
	} else {
		subCols(w32, zw, 1)
	}
	y := out[0]
	if !k.qlinear {
		k.conv(x32, w32, y.i32())
		return nil
	}
	acc := growI32(&k.acc, y.numel())
	k.conv(x32, w32, acc)
	return k.requant(in, y, acc)
}

// conv computes the int32 convolution of x and w into y.
func (k *qconvKernel) conv(x, w, y []int32) {
	g := &k.g
	cg, mg := k.c/k.group, k.m/k.group
	inSz, kSz := size3(g.in), size3(g.k)
	yi := 0
	for b := range k.nb {
		for m := range k.m {
			grp := m / mg
			wm := w[m*cg*kSz : (m+1)*cg*kSz]
			xb := x[(b*k.c+grp*cg)*inSz : (b*k.c+(grp+1)*cg)*inSz]
			for o0 := range g.out[0] {
				for o1 := range g.out[1] {
					for o2 := range g.out[2] {
						var s int32
						for c := range cg {
							xc, wc := xb[c*inSz:(c+1)*inSz], wm[c*kSz:(c+1)*kSz]
							for k0 := range g.k[0] {
								i0 := o0*g.s[0] - g.pb[0] + k0*g.d[0]
								if i0 < 0 || i0 >= g.in[0] {
									continue
								}
								for k1 := range g.k[1] {
									i1 := o1*g.s[1] - g.pb[1] + k1*g.d[1]
									if i1 < 0 || i1 >= g.in[1] {
										continue
									}
									row := xc[(i0*g.in[1]+i1)*g.in[2]:]
									wr := wc[(k0*g.k[1]+k1)*g.k[2]:]
									for k2 := range g.k[2] {
										i2 := o2*g.s[2] - g.pb[2] + k2*g.d[2]
										if i2 >= 0 && i2 < g.in[2] {
											s += row[i2] * wr[k2]
										}
									}
								}
							}
						}
						y[yi] = s
						yi++
					}
				}
			}
		}
	}
}

// requant adds QLinearConv's bias to the sums and writes its output.
func (k *qconvKernel) requant(in []*tensor, y *tensor, acc []int32) error {
	sx, sw, sy, zy := in[1], in[4], in[6], in[7]
	if sx.numel() != 1 || sy.numel() != 1 || zy.numel() != 1 {
		return shapeErr(k.n, "x_scale %v, y_scale %v and y_zero_point %v: want one value each", sx.shape, sy.shape, zy.shape)
	}
	if c := sw.numel(); c != 1 && c != k.m {
		return shapeErr(k.n, "w_scale of shape %v: want one value or %d", sw.shape, k.m)
	}
	spatial := size3(k.g.out)
	if b := optIn(in, 8); b != nil {
		bias := b.i32()
		for i := range acc {
			acc[i] += bias[(i/max(spatial, 1))%k.m]
		}
	}
	mult := requantScales(&k.mult, &k.sc, sx, sw, sy)
	var z [1]int32
	readQ8(z[:], zy)
	requantize(y, acc, mult, k.m, max(spatial, 1), float64(z[0]))
	return nil
}

func init() {
	register("ConvInteger", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.ConvIntegerAttrs)
		if !q8(c.inType(0)) || !q8(c.inType(1)) {
			return nil, c.unsupported("input and weights of element types %s and %s (supported: int8, uint8)", c.inType(0), c.inType(1))
		}
		for i := 2; i < 4; i++ {
			if t := c.inType(i); t != payload.Undefined && t != c.inType(i-2) {
				return nil, c.invalid("zero point %d of type %s for an operand of type %s", i-2, t, c.inType(i-2))
			}
		}
		if err := checkWindow(c, &a.Window); err != nil {
			return nil, err
		}
		return &qconvKernel{n: c.n, win: &a.Window, group: a.Group, wi: 1}, nil
	})
	register("QLinearConv", func(c *buildCtx) (kernel, error) {
		a := c.rule.(*model.QLinearConvAttrs)
		if err := qlinearTypes(c, 0, 3, 7); err != nil {
			return nil, err
		}
		if t := c.inType(8); t != payload.Undefined && t != payload.Int32 {
			return nil, c.invalid("bias of element type %s (want int32)", t)
		}
		if err := checkWindow(c, &a.Window); err != nil {
			return nil, err
		}
		return &qconvKernel{n: c.n, win: &a.Window, group: a.Group, wi: 3, qlinear: true}, nil
	})
}
