package model

import (
	"math"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/internal/resize"
)

func init() {
	RegisterOp(&Op{
		Type: "Resize",
		Versions: []Version{
			{Since: 10, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}},
			// Opset 11 adds roi and sizes; later opsets change attributes
			// only (13: defaults, 18: antialias, axes and
			// keep_aspect_ratio_policy, 19: half_pixel_symmetric).
			{Since: 11, MinIn: 1, MaxIn: 4, MaxOut: 1, Values: []int{2, 3}},
		},
		InputNames: []string{"X", "roi", "scales", "sizes"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return bindResize(n, opset, false) },
	})
	RegisterOp(&Op{
		Type: "Upsample",
		Versions: []Version{
			// Upsample-1 (experimental) scaled H and W by its width_scale
			// and height_scale attributes: refused in Bind.
			{Since: 1, MinIn: 1, MaxIn: 1, MaxOut: 1},
			{Since: 7, MinIn: 1, MaxIn: 1, MaxOut: 1},
			// Opset 9 moves scales to an input.
			{Since: 9, MinIn: 2, MaxIn: 2, MaxOut: 1, Values: []int{1}},
		},
		InputNames: []string{"X", "scales"},
		Bind:       func(n *Node, opset int64) (Rule, error) { return bindResize(n, opset, true) },
	})
}

// Keep-aspect-ratio policies of ResizeAttrs (opset 18).
const (
	// AspectStretch takes the sizes as they are.
	AspectStretch = iota
	// AspectNotLarger scales every axis by the smallest of the sizes'
	// ratios.
	AspectNotLarger
	// AspectNotSmaller scales every axis by the largest.
	AspectNotSmaller
)

// ResizeAttrs are a Resize or Upsample node's attributes. The output has
// X's shape with each resized axis scaled: floor(scale·dim) in float32
// arithmetic from the scales (input or, for Upsample before opset 9, the
// scales attribute), or the sizes input, adjusted by
// KeepAspectRatioPolicy. Exactly one of scales and sizes is given; an
// empty tensor counts as absent.
type ResizeAttrs struct {
	// Upsample is set for Upsample, whose scales must be at least 1.
	Upsample bool
	// Mode is mode: "nearest", "linear" (or its old name "bilinear") or
	// "cubic" (Resize only).
	Mode string
	// Coord is coordinate_transformation_mode; Upsample and Resize-10
	// map coordinates as resize.Asymmetric.
	Coord resize.Coord
	// Nearest is nearest_mode; resize.Simple for Upsample and Resize-10.
	Nearest resize.Nearest
	// CubicCoeffA is cubic_coeff_a.
	CubicCoeffA float32
	// ExcludeOutside is exclude_outside: cubic taps outside the input
	// weigh nothing.
	ExcludeOutside bool
	// ExtrapolationValue is extrapolation_value, for tf_crop_and_resize.
	ExtrapolationValue float32
	// Antialias is antialias (opset 18).
	Antialias bool
	// Axes is axes (opset 18): the axes scales and sizes apply to; nil
	// for all of them.
	Axes []int64
	// KeepAspectRatio is keep_aspect_ratio_policy (opset 18), one of
	// AspectStretch, AspectNotLarger and AspectNotSmaller.
	KeepAspectRatio int
	// Scales is Upsample's scales attribute before opset 9, else nil.
	Scales []float32
	// ROI, ScalesIn and SizesIn are the positions of the roi, scales and
	// sizes inputs; -1 where the op has none.
	ROI, ScalesIn, SizesIn int
}

func bindResize(n *Node, opset int64, upsample bool) (Rule, error) {
	bad := func(kind error, what string, v any) (Rule, error) {
		return nil, errs.New(kind, "node %q (%s): %s %v", n.Label(), n.OpType, what, v)
	}
	if upsample && opset < 7 {
		return nil, errs.New(errs.Unsupported, "node %q (%s): Upsample-1's width_scale and height_scale (opset %d) are not supported", n.Label(), n.OpType, opset)
	}
	a := &ResizeAttrs{Upsample: upsample, ROI: -1, ScalesIn: -1, SizesIn: -1, CubicCoeffA: -0.75}
	var err error
	if a.Mode, err = n.String("mode", "nearest"); err != nil {
		return nil, err
	}
	switch a.Mode {
	case "nearest", "linear", "bilinear":
	case "cubic":
		if upsample {
			return bad(errs.Unsupported, "mode", a.Mode)
		}
	default:
		return bad(errs.Unsupported, "mode", a.Mode)
	}
	if upsample || opset < 11 {
		a.Coord, a.Nearest = resize.Asymmetric, resize.Simple
		switch {
		case upsample && opset < 9:
			if a.Scales, err = n.Floats("scales", nil); err != nil {
				return nil, err
			}
			if a.Scales == nil {
				return nil, attrMissing(n, "scales")
			}
		default:
			a.ScalesIn = 1
		}
		return a, nil
	}
	a.ROI, a.ScalesIn, a.SizesIn = 1, 2, 3
	cm, err := n.String("coordinate_transformation_mode", "half_pixel")
	if err != nil {
		return nil, err
	}
	var ok bool
	if a.Coord, ok = resize.ParseCoord(cm); !ok {
		return bad(errs.Unsupported, "coordinate_transformation_mode", cm)
	}
	nm, err := n.String("nearest_mode", "round_prefer_floor")
	if err != nil {
		return nil, err
	}
	if a.Nearest, ok = resize.ParseNearest(nm); !ok {
		return bad(errs.Unsupported, "nearest_mode", nm)
	}
	if a.CubicCoeffA, err = n.Float("cubic_coeff_a", -0.75); err != nil {
		return nil, err
	}
	ex, err := n.Int("exclude_outside", 0)
	if err != nil {
		return nil, err
	}
	a.ExcludeOutside = ex != 0
	if a.ExtrapolationValue, err = n.Float("extrapolation_value", 0); err != nil {
		return nil, err
	}
	if opset < 18 {
		return a, nil
	}
	aa, err := n.Int("antialias", 0)
	if err != nil {
		return nil, err
	}
	a.Antialias = aa != 0
	if a.Axes, err = n.Ints("axes", nil); err != nil {
		return nil, err
	}
	pol, err := n.String("keep_aspect_ratio_policy", "stretch")
	if err != nil {
		return nil, err
	}
	switch pol {
	case "stretch":
		a.KeepAspectRatio = AspectStretch
	case "not_larger":
		a.KeepAspectRatio = AspectNotLarger
	case "not_smaller":
		a.KeepAspectRatio = AspectNotSmaller
	default:
		return bad(errs.Unsupported, "keep_aspect_ratio_policy", pol)
	}
	return a, nil
}

// resizeIn says what the rule knows of the scales or sizes input.
type resizeIn int

const (
	inAbsent  resizeIn = iota // not given, or empty
	inUnknown                 // given, contents unknown
	inKnown                   // given, contents known
)

// resizeInput classifies input i, which holds scales (floats) or sizes.
func resizeInput(c *InferCtx, i int, floats bool) (resizeIn, int) {
	if i < 0 || !c.Has(i) {
		return inAbsent, 0
	}
	if floats {
		if v, ok := c.Floats(i); ok {
			if len(v) == 0 {
				return inAbsent, 0
			}
			return inKnown, len(v)
		}
	} else if v, ok := c.Ints(i); ok {
		if len(v) == 0 {
			return inAbsent, 0
		}
		return inKnown, len(v)
	}
	if c.VecLen(i) == 0 {
		return inAbsent, 0
	}
	return inUnknown, 0
}

// Infer implements Rule.
func (a *ResizeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	x, ok := c.Dims(0)
	if !ok {
		c.SetUnranked(0)
		return nil
	}
	r := len(x)
	// marks[d] is 1 + the index into scales or sizes of axis d, 0 when d
	// is not resized.
	marks := c.Scratch(r)
	m := r
	if a.Axes != nil {
		m = len(a.Axes)
		if err := c.MarkAxes(a.Axes, r, marks); err != nil {
			return err
		}
		for j, ax := range a.Axes {
			d, _ := c.Axis(ax, r)
			marks[d] = j + 1
		}
	} else {
		for d := range marks {
			marks[d] = d + 1
		}
	}
	out := c.OutDims(0, r)
	copy(out, x)
	scalesIn, ns := inKnown, len(a.Scales)
	if a.Scales == nil {
		scalesIn, ns = resizeInput(c, a.ScalesIn, true)
	}
	sizesIn, nz := resizeInput(c, a.SizesIn, false)
	switch {
	case scalesIn != inAbsent && sizesIn != inAbsent:
		if scalesIn == inKnown && sizesIn == inKnown {
			return c.Errorf("both scales and sizes are given")
		}
		fallthrough
	case scalesIn == inUnknown || sizesIn == inUnknown:
		if c.Runtime() {
			return c.Errorf("the contents of scales or sizes are not known")
		}
		for d := range out {
			if marks[d] > 0 {
				out[d] = -1
			}
		}
		return nil
	case scalesIn == inKnown:
		if ns != m {
			return c.Errorf("%d scales for %d axes", ns, m)
		}
		return a.scaled(c, x, marks, out)
	case sizesIn == inKnown:
		if nz != m {
			return c.Errorf("%d sizes for %d axes", nz, m)
		}
		return a.sized(c, x, marks, out)
	}
	return c.Errorf("neither scales nor sizes is given")
}

// scale returns the j-th scale, as float32.
func (a *ResizeAttrs) scale(c *InferCtx, j int) float32 {
	if a.Scales != nil {
		return a.Scales[j]
	}
	v, _ := c.Floats(a.ScalesIn)
	return float32(v[j])
}

// scaled sets the resized axes of out from the scales.
func (a *ResizeAttrs) scaled(c *InferCtx, x, marks, out []int) error {
	for d, mk := range marks {
		if mk == 0 {
			continue
		}
		s := a.scale(c, mk-1)
		if !(s > 0) || math.IsInf(float64(s), 0) || (a.Upsample && s < 1) {
			return c.Errorf("scale %v for axis %d", s, d)
		}
		if x[d] < 0 {
			out[d] = -1
			continue
		}
		o := float64(s * float32(x[d]))
		if o >= float64(maxDimValue) {
			return c.Errorf("scale %v makes axis %d too large", s, d)
		}
		out[d] = int(o)
	}
	return checkNumel(c, out)
}

// checkNumel refuses an output shape whose element count overflows.
func checkNumel(c *InferCtx, out []int) error {
	_, _, err := c.Numel(out)
	return err
}

// sized sets the resized axes of out from the sizes.
func (a *ResizeAttrs) sized(c *InferCtx, x, marks, out []int) error {
	sizes, _ := c.Ints(a.SizesIn)
	for d, mk := range marks {
		if mk == 0 {
			continue
		}
		sz := sizes[mk-1]
		if sz < 0 || sz > int64(maxDimValue) {
			return c.Errorf("size %d for axis %d", sz, d)
		}
		if x[d] == 0 && sz != 0 {
			return c.Errorf("size %d for an empty axis %d", sz, d)
		}
		if a.KeepAspectRatio == AspectStretch {
			out[d] = int(sz)
		}
	}
	if a.KeepAspectRatio == AspectStretch {
		return checkNumel(c, out)
	}
	// One scale for every axis, from the sizes' ratios, in float32 as
	// ONNX Runtime computes it.
	pol := float32(0)
	for d, mk := range marks {
		if mk == 0 || x[d] == 0 {
			continue
		}
		if x[d] < 0 {
			for d, mk := range marks {
				if mk > 0 {
					out[d] = -1
				}
			}
			return nil
		}
		s := float32(sizes[mk-1]) / float32(x[d])
		switch {
		case pol == 0:
			pol = s
		case a.KeepAspectRatio == AspectNotLarger:
			pol = min(pol, s)
		default:
			pol = max(pol, s)
		}
	}
	for d, mk := range marks {
		if mk == 0 || x[d] == 0 {
			continue
		}
		o := math.Round(float64(pol * float32(x[d])))
		if o >= float64(maxDimValue) {
			return c.Errorf("sizes make axis %d too large", d)
		}
		out[d] = int(o)
	}
	return checkNumel(c, out)
}
