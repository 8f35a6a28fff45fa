package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// affineGridKernel is AffineGrid on float32 or float64: each output
// point is theta times the homogeneous normalized coordinates (x, y[, z],
// 1) of its element.
type affineGridKernel struct {
	align bool
	ctr   []int
	base  []float64 // per spatial dim, the normalized coordinates
	start []int
}

func (k *affineGridKernel) run(in, out []*tensor) error {
	th, y := in[0], out[0]
	nd := len(y.shape) - 2
	sp := y.shape[1 : 1+nd] // D, H, W
	k.start = growInts(&k.start, nd+1)
	n := 0
	for i, s := range sp {
		k.start[i] = n
		n += s
	}
	k.start[nd] = n
	k.base = growF64(&k.base, n)
	for i, s := range sp {
		b := k.base[k.start[i]:k.start[i+1]]
		for j := range b {
			switch {
			case !k.align:
				b[j] = float64(2*j+1)/float64(s) - 1
			case s > 1:
				b[j] = -1 + 2*float64(j)/float64(s-1)
			default:
				b[j] = -1
			}
		}
	}
	k.ctr = growInts(&k.ctr, nd)
	if th.dt == payload.Float64 {
		affineGrid(k, th.f64(), y.f64(), y.shape)
	} else {
		affineGrid(k, th.f32(), y.f32(), y.shape)
	}
	return nil
}

func affineGrid[T float32 | float64](k *affineGridKernel, th, y []T, ys []int) {
	nd := len(ys) - 2
	sp := ys[1 : 1+nd]
	pts := mulDims(sp)
	if pts == 0 {
		return
	}
	var c [4]float64 // x, y, z, 1: innermost dim first
	for n := 0; n < ys[0]; n++ {
		t := th[n*nd*(nd+1) : (n+1)*nd*(nd+1)]
		for i := range k.ctr {
			k.ctr[i] = 0
		}
		for p := 0; p < pts; p++ {
			for d := 0; d < nd; d++ {
				c[nd-1-d] = k.base[k.start[d]+k.ctr[d]]
			}
			c[nd] = 1
			o := y[(n*pts+p)*nd : (n*pts+p+1)*nd]
			for r := 0; r < nd; r++ {
				row := t[r*(nd+1) : (r+1)*(nd+1)]
				s := 0.0
				for q, v := range row {
					s += float64(v) * c[q]
				}
				o[r] = T(s)
			}
			odometer(k.ctr, sp)
		}
	}
}

func init() {
	register("AffineGrid", func(c *buildCtx) (kernel, error) {
		if t := c.inType(0); t != payload.Float32 && t != payload.Float64 {
			return nil, c.unsupported("element type %s (supported: float32, float64)", t)
		}
		if t := c.inType(1); t != payload.Int64 {
			return nil, c.unsupported("size of type %s (supported: int64)", t)
		}
		return &affineGridKernel{align: c.rule.(*model.AffineGridAttrs).AlignCorners}, nil
	})
}
