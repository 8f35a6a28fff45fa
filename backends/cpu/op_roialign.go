package cpu

import (
	"math"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// roiAlignKernel is RoiAlign on float32 or float64, step for step as ONNX
// Runtime computes it (and ONNX's reference after it), including its max
// mode, which takes the largest weighted corner of each sample rather
// than the largest interpolated sample.
type roiAlignKernel struct {
	n *model.Node
	a model.RoiAlignAttrs
	// one bin row's samples: four corner offsets and weights each.
	pos []int
	w   []float64
}

func (k *roiAlignKernel) run(in, out []*tensor) error {
	x, rois, bi, y := in[0], in[1], in[2], out[0]
	N := int64(x.shape[0])
	for _, b := range bi.i64()[:bi.numel()] {
		if b < 0 || b >= N {
			return shapeErr(k.n, "batch index %d out of range for %d images", b, N)
		}
	}
	if y.numel() == 0 {
		return nil
	}
	if x.shape[2] == 0 || x.shape[3] == 0 {
		clear(y.data) // no samples: every bin is 0, as in max mode
		return nil
	}
	if x.dt == payload.Float64 {
		roiAlign(k, x.f64(), rois.f64(), bi.i64(), y.f64(), x.shape)
	} else {
		roiAlign(k, x.f32(), rois.f32(), bi.i64(), y.f32(), x.shape)
	}
	return nil
}

func roiAlign[T float32 | float64](k *roiAlignKernel, x, rois []T, bi []int64, y []T, xs []int) {
	C, H, W := xs[1], xs[2], xs[3]
	ph, pw := k.a.OutputHeight, k.a.OutputWidth
	scale := float64(k.a.SpatialScale)
	off := 0.0
	if k.a.HalfPixel {
		off = 0.5
	}
	for r := range bi {
		box := rois[4*r : 4*r+4]
		sw := float64(box[0])*scale - off
		sh := float64(box[1])*scale - off
		rw := float64(box[2])*scale - off - sw
		rh := float64(box[3])*scale - off - sh
		if !k.a.HalfPixel {
			// Malformed regions are forced to 1×1.
			rw, rh = max(rw, 1), max(rh, 1)
		}
		bh, bw := rh/float64(ph), rw/float64(pw)
		gh, gw := k.a.SamplingRatio, k.a.SamplingRatio
		if gh <= 0 {
			gh = roiGrid(rh / float64(ph))
			gw = roiGrid(rw / float64(pw))
		}
		count := max(gh*gw, 1)
		// Every bin's samples, bin row by bin row, corners by sample.
		ns := ph * pw * gh * gw
		k.pos = growInts(&k.pos, 4*ns)
		k.w = growF64(&k.w, 4*ns)
		q := 0
		for py := 0; py < ph; py++ {
			for px := 0; px < pw; px++ {
				for iy := 0; iy < gh; iy++ {
					yy := sh + float64(py)*bh + (float64(iy)+0.5)*bh/float64(gh)
					for ix := 0; ix < gw; ix++ {
						xx := sw + float64(px)*bw + (float64(ix)+0.5)*bw/float64(gw)
						roiCorners(k.pos[4*q:4*q+4], k.w[4*q:4*q+4], yy, xx, H, W)
						q++
					}
				}
			}
		}
		b := int(bi[r])
		for c := 0; c < C; c++ {
			plane := x[(b*C+c)*H*W : (b*C+c+1)*H*W]
			o := y[(r*C+c)*ph*pw : (r*C+c+1)*ph*pw]
			per := gh * gw
			for bin := range o {
				s := 0.0
				for j := bin * per; j < (bin+1)*per; j++ {
					p, w := k.pos[4*j:4*j+4], k.w[4*j:4*j+4]
					if k.a.Max {
						v := max(w[0]*float64(plane[p[0]]), w[1]*float64(plane[p[1]]), w[2]*float64(plane[p[2]]), w[3]*float64(plane[p[3]]))
						if j == bin*per || v > s {
							s = v
						}
						continue
					}
					s += w[0]*float64(plane[p[0]]) + w[1]*float64(plane[p[1]]) + w[2]*float64(plane[p[2]]) + w[3]*float64(plane[p[3]])
				}
				if !k.a.Max {
					s /= float64(count)
				}
				o[bin] = T(s)
			}
		}
	}
}

// roiGrid is ceil(v) as a sample count: at least 0, NaN giving 0.
func roiGrid(v float64) int {
	c := math.Ceil(v)
	if !(c > 0) {
		return 0
	}
	return int(min(c, 1<<20))
}

// roiCorners sets the four corners (offsets into an h×w plane) and
// weights of a bilinear sample at (y, x); a sample beyond a border by
// more than one element weighs nothing.
func roiCorners(pos []int, w []float64, y, x float64, h, wd int) {
	if !(y >= -1 && y <= float64(h) && x >= -1 && x <= float64(wd)) {
		for i := range pos {
			pos[i], w[i] = 0, 0
		}
		return
	}
	y, x = max(y, 0), max(x, 0)
	yl, xl := int(y), int(x)
	yh, xh := yl+1, xl+1
	if yl >= h-1 {
		yl, yh, y = h-1, h-1, float64(h-1)
	}
	if xl >= wd-1 {
		xl, xh, x = wd-1, wd-1, float64(wd-1)
	}
	ly, lx := y-float64(yl), x-float64(xl)
	hy, hx := 1-ly, 1-lx
	pos[0], pos[1], pos[2], pos[3] = yl*wd+xl, yl*wd+xh, yh*wd+xl, yh*wd+xh
	w[0], w[1], w[2], w[3] = hy*hx, hy*lx, ly*hx, ly*lx
}

func init() {
	register("RoiAlign", func(c *buildCtx) (kernel, error) {
		t := c.inType(0)
		if t != payload.Float32 && t != payload.Float64 {
			return nil, c.unsupported("element type %s (supported: float32, float64)", t)
		}
		if c.inType(1) != t {
			return nil, c.unsupported("rois of type %s for X of type %s", c.inType(1), t)
		}
		if c.inType(2) != payload.Int64 {
			return nil, c.unsupported("batch_indices of type %s (supported: int64)", c.inType(2))
		}
		return &roiAlignKernel{n: c.n, a: *c.rule.(*model.RoiAlignAttrs)}, nil
	})
}
