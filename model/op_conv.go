package model

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/errs"
)

func init() {
	RegisterOp(&Op{
		Type:       "Conv",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"X", "W", "B"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ConvAttrs{}
			var err error
			if a.Window, a.Group, err = bindConvCommon(n); err != nil {
				return nil, err
			}
			return a, nil
		},
	})
	RegisterOp(&Op{
		Type:       "ConvTranspose",
		Versions:   []Version{{Since: 1, MinIn: 2, MaxIn: 3, MaxOut: 1}},
		InputNames: []string{"X", "W", "B"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &ConvTransposeAttrs{}
			var err error
			if a.Window, a.Group, err = bindConvCommon(n); err != nil {
				return nil, err
			}
			if a.OutputPadding, err = n.Ints("output_padding", nil); err != nil {
				return nil, err
			}
			for _, v := range a.OutputPadding {
				if v < 0 {
					return nil, errs.New(errs.InvalidArtifact, "node %q (%s): output_padding %v has a negative entry", n.Label(), n.OpType, a.OutputPadding)
				}
			}
			if a.OutputShape, err = n.Ints("output_shape", nil); err != nil {
				return nil, err
			}
			for _, v := range a.OutputShape {
				if v < 0 || v > int64(maxDimValue) {
					return nil, errs.New(errs.InvalidArtifact, "node %q (%s): output_shape %v: dimension %d out of range", n.Label(), n.OpType, a.OutputShape, v)
				}
			}
			return a, nil
		},
	})
}

// bindConvCommon parses what Conv and ConvTranspose share: the window and
// group.
func bindConvCommon(n *Node) (Window, int, error) {
	w, err := bindWindow(n, false)
	if err != nil {
		return w, 0, err
	}
	g, err := n.Int("group", 1)
	if err != nil {
		return w, 0, err
	}
	if g < 1 || g > 1<<31 {
		return w, 0, errs.New(errs.InvalidArtifact, "node %q (%s): group %d", n.Label(), n.OpType, g)
	}
	return w, int(g), nil
}

// ConvAttrs are a Conv node's attributes. X is N×C×D1…Dk, W is
// M×(C/Group)×K1…Kk and the optional bias B has M values; the output is
// N×M×O1…Ok, each Oi as Window.Dim computes it.
type ConvAttrs struct {
	// Window is the window; its CeilMode is always false.
	Window Window
	// Group is group: the channels split into that many independent
	// convolutions.
	Group int
}

// convRanks returns the rank that X and W share, -1 when neither is
// known, and their dims (unknown dims where a rank is unknown, in
// scratch).
func convRanks(c *InferCtx) (r int, x, w []int, err error) {
	x, xok := c.Dims(0)
	w, wok := c.Dims(1)
	switch {
	case xok:
		r = len(x)
	case wok:
		r = len(w)
	default:
		return -1, nil, nil, nil
	}
	if r < 3 || (wok && len(w) != r) {
		return 0, nil, nil, c.Errorf("input rank %d, weight rank %d: want equal ranks of at least 3", c.Rank(0), c.Rank(1))
	}
	if !xok || !wok {
		s := c.Scratch(r)
		for i := range s {
			s[i] = -1
		}
		if !xok {
			x = s
		} else {
			w = s
		}
	}
	return r, x, w, nil
}

// checkKernel checks kernel_shape against the weights' spatial dims ws.
func checkKernel(c *InferCtx, win *Window, ws []int) error {
	ks := win.KernelShape
	if ks == nil {
		return nil
	}
	if len(ks) != len(ws) {
		return c.Errorf("kernel_shape %v for %d spatial dims", ks, len(ws))
	}
	for i, k := range ks {
		if ws[i] >= 0 && int64(ws[i]) != k {
			return c.Errorf("kernel_shape %v does not match the weights' spatial dims %v", ks, ws)
		}
	}
	return nil
}

// kernelDim returns spatial dim i of the kernel: the weights' ws[i], or
// kernel_shape's where that is unknown; -1 when neither is known.
func (w *Window) kernelDim(i int, ws []int) int {
	if ws[i] < 0 && w.KernelShape != nil {
		return clampDim(w.KernelShape[i])
	}
	return ws[i]
}

// convBias checks the optional bias input against m output channels.
func convBias(c *InferCtx, m int) error {
	b, ok := c.Dims(2)
	if !ok {
		return nil
	}
	if len(b) != 1 || (m >= 0 && b[0] >= 0 && b[0] != m) {
		return c.Errorf("bias of shape %v for %d output channels", b, m)
	}
	return nil
}

// convGroups checks what Conv and DeformConv share: the ranks of X and
// W (r < 0 when unknown, and the output is then unranked), the window's
// fit to them, and the channels of group g. It returns the rank, X's and
// W's dims and the output channels.
func convGroups(c *InferCtx, win *Window, g int) (r int, x, w []int, m int, err error) {
	c.SetType(0, c.DType(0))
	r, x, w, err = convRanks(c)
	if err != nil || r < 0 {
		if r < 0 {
			c.SetUnranked(0)
		}
		return r, nil, nil, 0, err
	}
	if err := c.RankOK(r); err != nil {
		return 0, nil, nil, 0, err
	}
	if !win.Fits(r - 2) {
		return 0, nil, nil, 0, win.fitErr(c, r-2)
	}
	m = w[0]
	if x[1] >= 0 && w[1] >= 0 && (w[1] > maxDimValue/g || w[1]*g != x[1]) {
		return 0, nil, nil, 0, c.Errorf("input of %d channels, weights %v with group %d want %d", x[1], w, g, w[1]*g)
	}
	if m >= 0 && m%g != 0 {
		return 0, nil, nil, 0, c.Errorf("weights %v: %d output channels not divisible by group %d", w, m, g)
	}
	return r, x, w, m, nil
}

// Infer implements Rule.
func (a *ConvAttrs) Infer(c *InferCtx) error {
	r, x, w, m, err := convGroups(c, &a.Window, a.Group)
	if err != nil || r < 0 {
		return err
	}
	if err := convBias(c, m); err != nil {
		return err
	}
	if err := checkKernel(c, &a.Window, w[2:]); err != nil {
		return err
	}
	out := c.OutDims(0, r)
	out[0], out[1] = x[0], m
	return a.Window.windowOut(c, x[2:], w[2:], out[2:])
}

// ConvTransposeAttrs are a ConvTranspose node's attributes. X is
// N×C×D1…Dk, W is C×(M/Group)×K1…Kk and the optional bias B has M
// values; the output is N×M×O1…Ok, each Oi as Dim computes it.
type ConvTransposeAttrs struct {
	// Window is the window; its CeilMode is always false.
	Window Window
	// Group is group.
	Group int
	// OutputPadding is output_padding: zeros added at the end of each
	// spatial dim of the output; nil when absent.
	OutputPadding []int64
	// OutputShape is output_shape: the output's spatial dims (or all
	// its dims), which set the pads; nil when absent.
	OutputShape []int64
}

// Fits reports whether the node's lists fit nd spatial dims.
func (a *ConvTransposeAttrs) Fits(nd int) bool {
	return a.Window.Fits(nd) && (a.OutputPadding == nil || len(a.OutputPadding) == nd) &&
		(a.OutputShape == nil || len(a.OutputShape) == nd || len(a.OutputShape) == nd+2)
}

// Dim computes spatial dim i (of nd) of a transposed convolution of an
// input of size in with a kernel of size k, as ONNX Runtime does: the
// output size, and the pads of the forward convolution from that output
// back to the input. The error, which names no node, says why the dim is
// out of range.
func (a *ConvTransposeAttrs) Dim(i, nd, in, k int) (WindowDim, error) {
	w := &a.Window
	dk, ok := w.extent(i, k)
	if !ok {
		return WindowDim{}, fmt.Errorf("kernel %d with dilation %d overflows", k, w.Dilation(i))
	}
	s, op := w.Stride(i), 0
	if a.OutputPadding != nil {
		op = clampDim(a.OutputPadding[i])
	}
	if in < 0 || in > maxDimValue || (in > 1 && s > maxDimValue/(in-1)) || op > maxDimValue {
		return WindowDim{}, fmt.Errorf("output dim out of range: input %d, stride %d", in, s)
	}
	full := s*(in-1) + op + dk
	if full > maxDimValue {
		return WindowDim{}, fmt.Errorf("output dim %d out of range", full)
	}
	if a.OutputShape != nil || w.AutoPad == PadSameUpper || w.AutoPad == PadSameLower {
		var o int
		if a.OutputShape != nil {
			o = clampDim(a.OutputShape[len(a.OutputShape)-nd+i])
		} else {
			if in > 0 && s > maxDimValue/in {
				return WindowDim{}, fmt.Errorf("output dim out of range: input %d, stride %d", in, s)
			}
			o = in * s
		}
		total := full - o
		if total < 0 && a.OutputShape == nil {
			total = 0
		}
		// An odd total pads more at the end for SAME_UPPER, at the
		// beginning otherwise. An output_shape beyond the full output
		// gives a negative total: the output extends past the last tap
		// with zeros at the end.
		var pb int
		switch {
		case total < 0:
		case w.AutoPad == PadSameUpper:
			pb = total / 2
		default:
			pb = total - total/2
		}
		return WindowDim{Out: full - total, PadBegin: pb, PadEnd: total - pb}, nil
	}
	pb, pe := w.Pad(i, nd)
	o := full - pb - pe
	if o < 0 {
		return WindowDim{}, fmt.Errorf("pads %d and %d leave a negative output size", pb, pe)
	}
	return WindowDim{Out: o, PadBegin: pb, PadEnd: pe}, nil
}

// Infer implements Rule.
func (a *ConvTransposeAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	r, x, w, err := convRanks(c)
	if err != nil {
		return err
	}
	if r < 0 {
		c.SetUnranked(0)
		return nil
	}
	if err := c.RankOK(r); err != nil {
		return err
	}
	nd := r - 2
	if !a.Fits(nd) {
		if !a.Window.Fits(nd) {
			return a.Window.fitErr(c, nd)
		}
		if a.OutputPadding != nil && len(a.OutputPadding) != nd {
			return c.Errorf("output_padding %v for %d spatial dims", a.OutputPadding, nd)
		}
		return c.Errorf("output_shape %v for %d spatial dims", a.OutputShape, nd)
	}
	g := a.Group
	if x[1] >= 0 && w[0] >= 0 && x[1] != w[0] {
		return c.Errorf("input of %d channels, weights %v want %d", x[1], w, w[0])
	}
	if x[1] >= 0 && x[1]%g != 0 {
		return c.Errorf("input of %d channels not divisible by group %d", x[1], g)
	}
	m := -1
	if w[1] >= 0 {
		if w[1] > maxDimValue/g {
			return c.Errorf("output channels out of range: weights %v, group %d", w, g)
		}
		m = w[1] * g
	}
	if err := convBias(c, m); err != nil {
		return err
	}
	if err := checkKernel(c, &a.Window, w[2:]); err != nil {
		return err
	}
	out := c.OutDims(0, r)
	out[0], out[1] = x[0], m
	for i := range nd {
		in, k := x[2+i], a.Window.kernelDim(i, w[2:])
		if a.OutputShape != nil {
			out[2+i] = clampDim(a.OutputShape[len(a.OutputShape)-nd+i])
			continue
		}
		if in < 0 || k < 0 {
			out[2+i] = -1
			continue
		}
		d, err := a.Dim(i, nd, in, k)
		if err != nil {
			return c.Errorf("spatial dim %d: %v", i, err)
		}
		out[2+i] = d.Out
	}
	return nil
}
