package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type: "RoiAlign",
		// Opset 16 adds coordinate_transformation_mode, whose default
		// (half_pixel) differs from opset 10's behaviour (output_half_pixel).
		Versions:   []Version{{Since: 10, MinIn: 3, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"X", "rois", "batch_indices"},
		Bind:       bindRoiAlign,
	})
}

func bindRoiAlign(n *Node, opset int64) (Rule, error) {
	a := &RoiAlignAttrs{}
	mode, err := n.String("mode", "avg")
	if err != nil {
		return nil, err
	}
	switch mode {
	case "avg":
	case "max":
		a.Max = true
	default:
		return nil, errs.New(errs.InvalidArtifact, "node %q (%s): mode %q", n.Label(), n.OpType, mode)
	}
	if opset >= 16 {
		cm, err := n.String("coordinate_transformation_mode", "half_pixel")
		if err != nil {
			return nil, err
		}
		switch cm {
		case "half_pixel":
			a.HalfPixel = true
		case "output_half_pixel":
		default:
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): coordinate_transformation_mode %q", n.Label(), n.OpType, cm)
		}
	}
	for _, p := range []struct {
		name string
		v    *int
		min  int64 // the least value, and the default
	}{{"output_height", &a.OutputHeight, 1}, {"output_width", &a.OutputWidth, 1}, {"sampling_ratio", &a.SamplingRatio, 0}} {
		v, err := n.Int(p.name, p.min)
		if err != nil {
			return nil, err
		}
		if v < p.min || v > int64(maxDimValue) {
			return nil, errs.New(errs.InvalidArtifact, "node %q (%s): %s %d", n.Label(), n.OpType, p.name, v)
		}
		*p.v = int(v)
	}
	if a.SpatialScale, err = n.Float("spatial_scale", 1); err != nil {
		return nil, err
	}
	return a, nil
}

// RoiAlignAttrs are a RoiAlign node's attributes. X is N×C×H×W, rois is
// R×4 (x1, y1, x2, y2 in X's coordinates before SpatialScale) and
// batch_indices (int64) has R values; the output, R×C×OutputHeight×
// OutputWidth, pools each region's bins from bilinear samples of X.
type RoiAlignAttrs struct {
	// Max is mode "max": a bin is the largest of its samples (as ONNX
	// Runtime takes them) rather than their mean.
	Max bool
	// HalfPixel is coordinate_transformation_mode half_pixel (the default
	// from opset 16): regions shift by half an element.
	HalfPixel bool
	// OutputHeight and OutputWidth are the bins per region.
	OutputHeight, OutputWidth int
	// SamplingRatio is sampling_ratio: samples per bin along each axis;
	// 0 for ceil(region size / bins).
	SamplingRatio int
	// SpatialScale is spatial_scale, which scales the rois.
	SpatialScale float32
}

// Infer implements Rule.
func (a *RoiAlignAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	if dt := c.DType(2); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("batch_indices has element type %s, want int64", dt)
	}
	x, xok := c.Dims(0)
	r, rok := c.Dims(1)
	b, bok := c.Dims(2)
	if xok && len(x) != 4 {
		return c.Errorf("X of shape %v: want N×C×H×W", x)
	}
	if rok && (len(r) != 2 || dimsConflict(r[1], 4)) {
		return c.Errorf("rois of shape %v: want R×4", r)
	}
	if bok && len(b) != 1 {
		return c.Errorf("batch_indices of shape %v: want R", b)
	}
	out := c.OutDims(0, 4)
	out[0], out[1], out[2], out[3] = -1, -1, a.OutputHeight, a.OutputWidth
	if xok {
		out[1] = x[1]
	}
	if rok {
		out[0] = r[0]
	}
	if bok {
		if dimsConflict(out[0], b[0]) {
			return c.Errorf("rois of shape %v and batch_indices of shape %v", r, b)
		}
		if out[0] < 0 {
			out[0] = b[0]
		}
	}
	return checkNumel(c, out)
}
