package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// deformConvKernel is DeformConv with two spatial dims on float32 or
// float64, as ONNX's reference computes it: each kernel tap reads X
// bilinearly at its place moved by the tap's offset, reading zero outside
// the input, scaled by the mask when given; each output element is then
// the bias plus the weights' dot product with the group's taps.
type deformConvKernel struct {
	n   *model.Node
	a   model.DeformConvAttrs
	col []float64 // one output place's taps: (C/group)·kH·kW
}

func (k *deformConvKernel) shape(in, out []*tensor) error {
	if len(in[0].shape) != 4 {
		return shapeErr(k.n, "X of shape %v: only two spatial dims are supported", in[0].shape)
	}
	return nil
}

func (k *deformConvKernel) run(in, out []*tensor) error {
	x, y := in[0], out[0]
	if y.numel() == 0 {
		return nil
	}
	w := in[1]
	k.col = growF64(&k.col, w.shape[1]*w.shape[2]*w.shape[3])
	if x.dt == payload.Float64 {
		deformConv(k, x.f64(), w.f64(), in[2].f64(), optF64(optIn(in, 3)), optF64(optIn(in, 4)), y.f64(), x.shape, w.shape, y.shape)
	} else {
		deformConv(k, x.f32(), w.f32(), in[2].f32(), optF32(optIn(in, 3)), optF32(optIn(in, 4)), y.f32(), x.shape, w.shape, y.shape)
	}
	return nil
}

func optF32(t *tensor) []float32 {
	if t == nil {
		return nil
	}
	return t.f32()
}

func optF64(t *tensor) []float64 {
	if t == nil {
		return nil
	}
	return t.f64()
}

func deformConv[T float32 | float64](k *deformConvKernel, x, w, off, b, mask, y []T, xs, ws, ys []int) {
	N, C, H, W := xs[0], xs[1], xs[2], xs[3]
	M, Cg, kh, kw := ws[0], ws[1], ws[2], ws[3]
	OH, OW := ys[2], ys[3]
	G, OG := k.a.Group, k.a.OffsetGroup
	Mg, kk, op := M/G, kh*kw, OH*OW
	cPerOG := C / OG
	win := &k.a.Window
	sh, sw := win.Stride(0), win.Stride(1)
	dh, dw := win.Dilation(0), win.Dilation(1)
	ph, _ := win.Pad(0, 2)
	pw, _ := win.Pad(1, 2)
	for n := 0; n < N; n++ {
		for g := 0; g < G; g++ {
			for oh := 0; oh < OH; oh++ {
				for ow := 0; ow < OW; ow++ {
					p := oh*OW + ow
					for ci := 0; ci < Cg; ci++ {
						c := g*Cg + ci
						og := c / cPerOG
						plane := x[(n*C+c)*H*W : (n*C+c+1)*H*W]
						ob := (n*OG + og) * 2 * kk
						for i := 0; i < kh; i++ {
							for j := 0; j < kw; j++ {
								t := i*kw + j
								yy := float64(oh*sh-ph+i*dh) + float64(off[(ob+2*t)*op+p])
								xx := float64(ow*sw-pw+j*dw) + float64(off[(ob+2*t+1)*op+p])
								v := bilinearZero(plane, H, W, yy, xx)
								if mask != nil {
									v *= float64(mask[((n*OG+og)*kk+t)*op+p])
								}
								k.col[ci*kk+t] = v
							}
						}
					}
					for m := g * Mg; m < (g+1)*Mg; m++ {
						s := 0.0
						if b != nil {
							s = float64(b[m])
						}
						wm := w[m*Cg*kk : (m+1)*Cg*kk]
						for q, v := range k.col {
							s += float64(wm[q]) * v
						}
						y[(n*M+m)*op+p] = T(s)
					}
				}
			}
		}
	}
}

// bilinearZero interpolates plane (h×w) at (y, x), reading zero outside.
func bilinearZero[T float32 | float64](plane []T, h, w int, y, x float64) float64 {
	fy, fx := math.Floor(y), math.Floor(x)
	if !(fy >= -1 && fy < float64(h) && fx >= -1 && fx < float64(w)) {
		return 0 // no tap inside, or NaN
	}
	y0, x0 := int(fy), int(fx)
	ly, lx := y-fy, x-fx
	at := func(r, c int) float64 {
		if r < 0 || r >= h || c < 0 || c >= w {
			return 0
		}
		return float64(plane[r*w+c])
	}
	return (1-ly)*((1-lx)*at(y0, x0)+lx*at(y0, x0+1)) + ly*((1-lx)*at(y0+1, x0)+lx*at(y0+1, x0+1))
}

func init() {
	register("DeformConv", func(c *buildCtx) (kernel, error) {
		t := c.inType(0)
		if t != payload.Float32 && t != payload.Float64 {
			return nil, c.unsupported("element type %s (supported: float32, float64)", t)
		}
		for i := 1; i < 5; i++ {
			if u := c.inType(i); u != t && (i < 3 || u != payload.Undefined) {
				return nil, c.unsupported("input %d of type %s for X of type %s", i, u, t)
			}
		}
		a := c.rule.(*model.DeformConvAttrs)
		if r := c.in[0].Shape; c.in[0].RankKnown && len(r) != 4 {
			return nil, c.unsupported("%d spatial dims (supported: 2)", len(r)-2)
		}
		return &deformConvKernel{n: c.n, a: *a}, nil
	})
}
