package gpu

import (
	"math"

	"github.com/lintel-ml/lintel/internal/resize"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	register(buildResize, "Resize")
}

// The Resize modes this file names (internal/resize, shared with the CPU
// backend).
const (
	ctAsymmetric      = resize.Asymmetric
	ctTFCropAndResize = resize.TFCropAndResize
	nmSimple          = resize.Simple
)

// resizer holds a Resize node's attributes and, once planned, each dim's
// scale and region of interest. Its arithmetic is the CPU backend's, in
// the same float32 steps, so that the tap indices and weights it uploads
// are the ones the CPU kernel computes.
type resizer struct {
	linear  bool
	coord   resize.Coord
	nearest resize.Nearest
	extrap  float32
	scale   []float32
	roi     []float32 // 2*rank: starts then ends
	// fromScales: the op was given scales, not sizes (resize.OrigFromScales).
	fromScales bool
}

// buildResize lowers Resize (nearest or linear, float32) to one resize_f32
// pass per resized axis, innermost first, as the CPU backend computes it;
// the per-axis tap tables are computed here and uploaded as constants.
// Scales, sizes and roi must be constants once the input shapes are known.
func buildResize(c *buildCtx) error {
	n := c.n
	x, err := c.input(0)
	if err != nil {
		return err
	}
	y, err := c.output()
	if err != nil {
		return err
	}
	mode, err := n.String("mode", "nearest")
	if err != nil {
		return err
	}
	rz := &resizer{}
	switch mode {
	case "nearest":
	case "linear", "bilinear":
		rz.linear = true
	default:
		return c.unsupported("mode %q (the kernels take nearest and linear)", mode)
	}
	if err := c.want(x, payload.Float32); err != nil {
		return err
	}
	if len(x.shape) != len(y.shape) {
		return c.invalid("X %v, Y %v", x.shape, y.shape)
	}
	scalesIdx, sizesIdx := 2, 3
	if c.opset < 11 {
		rz.coord, rz.nearest = ctAsymmetric, nmSimple
		scalesIdx, sizesIdx = 1, -1
	} else if err := rz.attrs(c); err != nil {
		return err
	}
	if err := rz.plan(c, x.shape, scalesIdx, sizesIdx); err != nil {
		return err
	}
	r := len(x.shape)
	cur := append([]int(nil), x.shape...)
	var passes []int
	for d := r - 1; d >= 0; d-- {
		if _, _, ident := rz.taps(d, x.shape[d], y.shape[d]); !ident {
			passes = append(passes, d)
		}
	}
	if len(passes) == 0 || y.numel() == 0 {
		if y.numel() == x.numel() {
			return c.view(0, 0)
		}
		return nil
	}
	for _, d := range x.shape {
		if d == 0 {
			return c.invalid("cannot resize an empty dim of %v to %v", x.shape, y.shape)
		}
	}
	src := x
	for i, d := range passes {
		idx, w, _ := rz.taps(d, cur[d], y.shape[d])
		k := len(idx) / max(y.shape[d], 1)
		outer, inner := 1, 1
		for _, v := range cur[:d] {
			outer *= v
		}
		for _, v := range cur[d+1:] {
			inner *= v
		}
		nin := cur[d]
		cur[d] = y.shape[d]
		dst := y
		if i < len(passes)-1 {
			if dst, err = c.temp(payload.Float32, append([]int(nil), cur...)); err != nil {
				return err
			}
		}
		ti := c.constOf(&model.Tensor{Name: "taps", DType: payload.Int32, Shape: []int{len(idx)}, Raw: payload.AsBytes(idx)})
		tw := c.constOf(&model.Tensor{Name: "weights", DType: payload.Float32, Shape: []int{len(w)}, Raw: payload.AsBytes(w)})
		cnt := outer * cur[d] * inner
		ra := ResizeArgs{N: u32(cnt), Outer: u32(outer), NIn: u32(nin), NOut: u32(cur[d]), Inner: u32(inner), K: u32(k), Extrap: rz.extrap}
		c.emit1D(KResize, Pack(nil, &ra), cnt, src, ti, tw, dst)
		src = dst
	}
	return nil
}

// attrs reads the attributes of Resize-11 and later.
func (rz *resizer) attrs(c *buildCtx) error {
	n := c.n
	cm, err := n.String("coordinate_transformation_mode", "half_pixel")
	if err != nil {
		return err
	}
	var ok bool
	if rz.coord, ok = resize.ParseCoord(cm); !ok {
		return c.unsupported("coordinate_transformation_mode %q", cm)
	}
	nm, err := n.String("nearest_mode", "round_prefer_floor")
	if err != nil {
		return err
	}
	if rz.nearest, ok = resize.ParseNearest(nm); !ok {
		return c.unsupported("nearest_mode %q", nm)
	}
	ev, err := n.Float("extrapolation_value", 0)
	if err != nil {
		return err
	}
	rz.extrap = ev
	if aa, err := n.Int("antialias", 0); err != nil {
		return err
	} else if aa != 0 {
		return c.unsupported("antialias")
	}
	return nil
}

// plan computes each dim's scale (and roi) from the constant scales or
// sizes, as the CPU backend does.
func (rz *resizer) plan(c *buildCtx, shape []int, scalesIdx, sizesIdx int) error {
	r := len(shape)
	rz.scale = make([]float32, r)
	rz.roi = make([]float32, 2*r)
	ax := make([]int, r)
	for i := range r {
		rz.scale[i] = 1
		rz.roi[i], rz.roi[r+i] = 0, 1
		ax[i] = i
	}
	m := r
	axes, err := c.n.Ints("axes", nil)
	if err != nil {
		return err
	}
	if axes != nil {
		m = len(axes)
		for i := range ax {
			ax[i] = -1
		}
		for j, a := range axes {
			d, err := c.axisOf(a, r)
			if err != nil {
				return err
			}
			if ax[d] >= 0 {
				return c.invalid("axis %d repeated", a)
			}
			ax[d] = j
		}
	}
	floats := func(i int) ([]float32, error) {
		if i < 0 || i >= len(c.in) || c.in[i] == nil || c.in[i].numel() == 0 {
			return nil, nil
		}
		v := c.in[i]
		if v.c == nil {
			return nil, c.unsupported("input %q must be a constant once the input shapes are known", v.name)
		}
		if v.dt != payload.Float32 {
			return nil, c.unsupported("input %q of type %s", v.name, v.dt)
		}
		f, err := v.c.Float64s()
		out := make([]float32, len(f))
		for i, x := range f {
			out[i] = float32(x)
		}
		return out, err
	}
	if rz.coord == ctTFCropAndResize {
		roi, err := floats(1)
		if err != nil {
			return err
		}
		if len(roi) != 2*m {
			return c.invalid("roi must be %d float32 values", 2*m)
		}
		for d := range r {
			if j := ax[d]; j >= 0 {
				rz.roi[d], rz.roi[r+d] = roi[j], roi[m+j]
			}
		}
	}
	scales, err := floats(scalesIdx)
	if err != nil {
		return err
	}
	var sizes []int64
	if sizesIdx >= 0 && sizesIdx < len(c.in) && c.in[sizesIdx] != nil && c.in[sizesIdx].numel() > 0 {
		if sizes, err = c.constInts(sizesIdx); err != nil {
			return err
		}
	}
	switch {
	case scales != nil && sizes != nil:
		return c.invalid("both scales and sizes are given")
	case scales != nil:
		if len(scales) != m {
			return c.invalid("%d scales for %d axes", len(scales), m)
		}
		rz.fromScales = true
		for d := range r {
			if j := ax[d]; j >= 0 {
				if s := scales[j]; !(s > 0) || math.IsInf(float64(s), 0) {
					return c.invalid("scale %v", s)
				}
				rz.scale[d] = scales[j]
			}
		}
	case sizes != nil:
		if len(sizes) != m {
			return c.invalid("%d sizes for %d axes", len(sizes), m)
		}
		pol, err := c.n.String("keep_aspect_ratio_policy", "stretch")
		if err != nil {
			return err
		}
		if pol != "stretch" && pol != "not_larger" && pol != "not_smaller" {
			return c.unsupported("keep_aspect_ratio_policy %q", pol)
		}
		p := float32(0)
		for d := range r {
			j := ax[d]
			if j < 0 || shape[d] == 0 {
				continue
			}
			s := float32(sizes[j]) / float32(shape[d])
			switch {
			case pol == "stretch":
				rz.scale[d] = s
			case p == 0:
				p = s
			case pol == "not_larger":
				p = min(p, s)
			default:
				p = max(p, s)
			}
		}
		if pol != "stretch" {
			for d := range r {
				if ax[d] >= 0 && shape[d] != 0 {
					rz.scale[d] = p
				}
			}
		}
	default:
		return c.invalid("neither scales nor sizes is given")
	}
	return nil
}

// orig maps output coordinate x along dim d to the input coordinate.
func (rz *resizer) orig(d int, x float32, outLen, inLen int) float32 {
	var rs, re float32
	if rz.coord == resize.TFCropAndResize {
		r := len(rz.roi) / 2
		rs, re = rz.roi[d], rz.roi[r+d]
	}
	if rz.fromScales {
		return resize.OrigFromScales(rz.coord, rz.scale[d], x, outLen, inLen, rs, re)
	}
	return resize.Orig(rz.coord, rz.scale[d], x, outLen, inLen, rs, re)
}

// nearestIdx rounds an input coordinate per the nearest mode.
func (rz *resizer) nearestIdx(x, scale float32) int {
	return resize.NearestIndex(rz.nearest, x, scale, math.MaxInt32)
}

// outside reports whether an input coordinate falls outside [0, n-1] where
// tf_crop_and_resize extrapolates.
func (rz *resizer) outside(x float32, n int) bool {
	return rz.coord == ctTFCropAndResize && (x < 0 || x > float32(n-1))
}

// taps returns the tap table of dim d: K indices (-1 first: extrapolate)
// and weights per output index, and whether the pass is the identity.
func (rz *resizer) taps(d, nin, nout int) ([]int32, []float32, bool) {
	k := 1
	if rz.linear {
		k = 2
	}
	idx := make([]int32, nout*k)
	w := make([]float32, nout*k)
	ident := nin == nout
	for o := range nout {
		t, ww := idx[o*k:o*k+k], w[o*k:o*k+k]
		c := rz.orig(d, float32(o), nout, nin)
		if rz.outside(c, nin) {
			t[0] = -1
			ident = false
			continue
		}
		if !rz.linear {
			t[0], ww[0] = int32(max(0, min(rz.nearestIdx(c, rz.scale[d]), nin-1))), 1
			if int(t[0]) != o {
				ident = false
			}
			continue
		}
		c = max(0, min(c, float32(nin-1)))
		x1 := min(int(c), nin-1)
		x2 := min(x1+1, nin-1)
		dx1 := float32(math.Abs(float64(c - float32(x1))))
		dx2 := float32(math.Abs(float64(c - float32(x2))))
		if x1 == x2 {
			dx1, dx2 = 0.5, 0.5
		}
		t[0], ww[0], t[1], ww[1] = int32(x1), dx2, int32(x2), dx1
		if !(x1 == o && (dx2 == 1 || x2 == o)) {
			ident = false
		}
	}
	return idx, w, ident
}
