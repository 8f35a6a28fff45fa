package model

import "github.com/lintel-ml/lintel/internal/errs"

// The interpolation modes of GridSampleAttrs.
const (
	// SampleLinear interpolates between the 2^r nearest elements.
	SampleLinear = iota
	// SampleNearest takes the nearest element, ties to even.
	SampleNearest
	// SampleCubic interpolates between the 4^r nearest elements with
	// cubic convolution (a = -0.75).
	SampleCubic
)

// The padding modes of GridSampleAttrs.
const (
	// SamplePadZeros reads zeros outside the input.
	SamplePadZeros = iota
	// SamplePadBorder clamps coordinates to the input.
	SamplePadBorder
	// SamplePadReflection reflects coordinates at the input's borders.
	SamplePadReflection
)

func init() {
	RegisterOp(&Op{
		Type: "GridSample",
		// Opset 20 takes any number of spatial dims and renames the modes
		// (linear, cubic); opset 22 widens the types only.
		Versions:   []Version{{Since: 16, MinIn: 2, MaxIn: 2, MaxOut: 1}},
		InputNames: []string{"X", "grid"},
		Bind:       bindGridSample,
	})
}

func bindGridSample(n *Node, opset int64) (Rule, error) {
	a := &GridSampleAttrs{}
	var err error
	if a.AlignCorners, err = flagAttr(n, "align_corners", false); err != nil {
		return nil, err
	}
	lin, cub := "linear", "cubic"
	if opset < 20 {
		lin, cub = "bilinear", "bicubic"
		a.Only2D = true
	}
	m, err := n.String("mode", lin)
	if err != nil {
		return nil, err
	}
	switch m {
	case lin:
		a.Mode = SampleLinear
	case "nearest":
		a.Mode = SampleNearest
	case cub:
		a.Mode = SampleCubic
	default:
		return nil, attrErr(n, "mode %q (opset %d takes %s, nearest or %s)", m, opset, lin, cub)
	}
	p, err := n.String("padding_mode", "zeros")
	if err != nil {
		return nil, err
	}
	switch p {
	case "zeros":
		a.Padding = SamplePadZeros
	case "border":
		a.Padding = SamplePadBorder
	case "reflection":
		a.Padding = SamplePadReflection
	default:
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): padding_mode %q", n.Label(), n.OpType, p)
	}
	return a, nil
}

// GridSampleAttrs are a GridSample node's attributes. X is N×C×D1…Dr and
// grid is N×O1…Or×r, whose last axis holds normalized coordinates in
// [-1, 1], innermost spatial dim first (x, y, z); the output is
// N×C×O1…Or, X sampled at each grid point.
type GridSampleAttrs struct {
	// Mode is mode: SampleLinear, SampleNearest or SampleCubic.
	Mode int
	// Padding is padding_mode: SamplePadZeros, SamplePadBorder or
	// SamplePadReflection.
	Padding int
	// AlignCorners is align_corners: -1 and 1 are the centres of the
	// corner elements rather than their outer edges.
	AlignCorners bool
	// Only2D is set before opset 20, whose X must be 4-D.
	Only2D bool
}

// Infer implements Rule.
func (a *GridSampleAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	x, xok := c.Dims(0)
	g, gok := c.Dims(1)
	if xok && !a.rankOK(len(x)) {
		return c.Errorf("X of shape %v: want N×C×H×W (opset 20: N×C×D1…Dr)", x)
	}
	if gok && !a.rankOK(len(g)) {
		return c.Errorf("grid of shape %v: want N×H×W×2 (opset 20: N×D1…Dr×r)", g)
	}
	if xok && gok && len(x) != len(g) {
		return c.Errorf("X of shape %v and grid of shape %v: want equal ranks", x, g)
	}
	if !xok && !gok {
		if a.Only2D {
			c.SetUnknownDims(0, 4)
		} else {
			c.SetUnranked(0)
		}
		return nil
	}
	r := len(x)
	if !xok {
		r = len(g)
	}
	if gok && g[r-1] >= 0 && g[r-1] != r-2 {
		return c.Errorf("grid of shape %v: its last dim must be %d, the number of spatial dims", g, r-2)
	}
	out := c.OutDims(0, r)
	for i := range out {
		out[i] = -1
	}
	if xok {
		out[0], out[1] = x[0], x[1]
	}
	if gok {
		if dimsConflict(out[0], g[0]) {
			return c.Errorf("X of shape %v and grid of shape %v: batch sizes differ", x, g)
		}
		if out[0] < 0 {
			out[0] = g[0]
		}
		copy(out[2:], g[1:r-1])
	}
	return checkNumel(c, out)
}

// rankOK reports whether X and grid may have rank r.
func (a *GridSampleAttrs) rankOK(r int) bool {
	if a.Only2D {
		return r == 4
	}
	return r >= 3 && r <= maxRank
}
