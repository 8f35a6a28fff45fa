package model

import (
	"fmt"

	"github.com/lintel-ml/lintel/internal/errs"
)

// AutoPad is a window's auto_pad mode.
type AutoPad uint8

// The auto_pad modes.
const (
	// PadNotSet takes the pads attribute.
	PadNotSet AutoPad = iota
	// PadSameUpper pads so that the output is ceil(input/stride), the odd
	// pad at the end.
	PadSameUpper
	// PadSameLower is PadSameUpper with the odd pad at the beginning.
	PadSameLower
	// PadValid does not pad.
	PadValid
)

// String returns the attribute value that names m.
func (m AutoPad) String() string {
	switch m {
	case PadSameUpper:
		return "SAME_UPPER"
	case PadSameLower:
		return "SAME_LOWER"
	case PadValid:
		return "VALID"
	}
	return "NOTSET"
}

// Window holds the window attributes that Conv, ConvTranspose and the
// pooling ops share, checked: every entry of KernelShape, Strides and
// Dilations is at least 1, every pad at least 0, and lists given
// together agree on the number of spatial dims. A list the node leaves
// out is nil; Stride, Dilation and Pad give its defaults.
type Window struct {
	// KernelShape is kernel_shape: required for pooling; Conv and
	// ConvTranspose take the weights' spatial dims when it is nil.
	KernelShape []int64
	// Strides is strides, one per spatial dim (default 1).
	Strides []int64
	// Dilations is dilations, one per spatial dim (default 1).
	Dilations []int64
	// Pads is pads: the begin pads of each spatial dim, then the end
	// pads (default 0). Only PadNotSet reads them; the others have none
	// or all zeros.
	Pads []int64
	// AutoPad is auto_pad.
	AutoPad AutoPad
	// CeilMode is the pooling ops' ceil_mode: the output size rounds up,
	// dropping a last window that would start in the end padding.
	CeilMode bool
}

// WindowDim is the geometry of one spatial dim of a window: the output
// size and the padding the window sees at each end (negative at the end
// when a ConvTranspose output_shape asks for more than the full output).
type WindowDim struct {
	Out, PadBegin, PadEnd int
}

// bindWindow parses a node's window attributes; ceil reads ceil_mode.
func bindWindow(n *Node, ceil bool) (Window, error) {
	var w Window
	var err error
	if w.KernelShape, err = n.Ints("kernel_shape", nil); err != nil {
		return w, err
	}
	if w.Strides, err = n.Ints("strides", nil); err != nil {
		return w, err
	}
	if w.Dilations, err = n.Ints("dilations", nil); err != nil {
		return w, err
	}
	if w.Pads, err = n.Ints("pads", nil); err != nil {
		return w, err
	}
	ap, err := n.String("auto_pad", "NOTSET")
	if err != nil {
		return w, err
	}
	switch ap {
	case "NOTSET", "":
		w.AutoPad = PadNotSet
	case "SAME_UPPER":
		w.AutoPad = PadSameUpper
	case "SAME_LOWER":
		w.AutoPad = PadSameLower
	case "VALID":
		w.AutoPad = PadValid
	default:
		return w, errs.New(errs.Unsupported, "node %q (%s): auto_pad %q", n.Label(), n.OpType, ap)
	}
	if ceil {
		cm, err := n.Int("ceil_mode", 0)
		if err != nil {
			return w, err
		}
		w.CeilMode = cm != 0
	}
	bad := func(format string, args ...any) error {
		return errs.New(errs.InvalidArtifact, "node %q (%s): %s", n.Label(), n.OpType, fmt.Sprintf(format, args...))
	}
	for _, l := range []struct {
		name string
		v    []int64
	}{{"kernel_shape", w.KernelShape}, {"strides", w.Strides}, {"dilations", w.Dilations}} {
		for _, x := range l.v {
			if x < 1 {
				return w, bad("%s %v has a non-positive entry", l.name, l.v)
			}
		}
	}
	for _, x := range w.Pads {
		if x < 0 {
			return w, errs.New(errs.Unsupported, "node %q (%s): negative pads %v", n.Label(), n.OpType, w.Pads)
		}
	}
	if len(w.Pads)%2 != 0 {
		return w, bad("pads %v: an odd number of values", w.Pads)
	}
	if w.AutoPad != PadNotSet {
		for _, x := range w.Pads {
			if x != 0 {
				return w, bad("pads %v given with auto_pad %q", w.Pads, ap)
			}
		}
	}
	nd := -1
	for _, l := range []struct {
		name string
		v    []int64
		per  int
	}{{"kernel_shape", w.KernelShape, 1}, {"strides", w.Strides, 1}, {"dilations", w.Dilations, 1}, {"pads", w.Pads, 2}} {
		if l.v == nil {
			continue
		}
		if k := len(l.v) / l.per; nd < 0 {
			nd = k
		} else if k != nd {
			return w, bad("%s %v for %d spatial dims", l.name, l.v, nd)
		}
	}
	return w, nil
}

// Fits reports whether the lists the node gave fit nd spatial dims.
func (w *Window) Fits(nd int) bool {
	return (w.KernelShape == nil || len(w.KernelShape) == nd) && (w.Strides == nil || len(w.Strides) == nd) &&
		(w.Dilations == nil || len(w.Dilations) == nd) && (w.Pads == nil || len(w.Pads) == 2*nd)
}

// fitErr describes lists that do not fit nd spatial dims; failure path
// only.
func (w *Window) fitErr(c *InferCtx, nd int) error {
	switch {
	case w.KernelShape != nil && len(w.KernelShape) != nd:
		return c.Errorf("kernel_shape %v for %d spatial dims", w.KernelShape, nd)
	case w.Strides != nil && len(w.Strides) != nd:
		return c.Errorf("strides %v for %d spatial dims", w.Strides, nd)
	case w.Dilations != nil && len(w.Dilations) != nd:
		return c.Errorf("dilations %v for %d spatial dims", w.Dilations, nd)
	}
	return c.Errorf("pads %v for %d spatial dims", w.Pads, nd)
}

// Stride returns spatial dim i's stride.
func (w *Window) Stride(i int) int {
	if w.Strides == nil {
		return 1
	}
	return clampDim(w.Strides[i])
}

// Dilation returns spatial dim i's dilation.
func (w *Window) Dilation(i int) int {
	if w.Dilations == nil {
		return 1
	}
	return clampDim(w.Dilations[i])
}

// Pad returns the begin and end pads of spatial dim i of nd as the node
// gives them: zero unless AutoPad is PadNotSet.
func (w *Window) Pad(i, nd int) (begin, end int) {
	if w.AutoPad != PadNotSet || w.Pads == nil {
		return 0, 0
	}
	return clampDim(w.Pads[i]), clampDim(w.Pads[i+nd])
}

// clampDim converts a checked positive attribute value to int, bounded
// so that a few of them add up without overflowing.
func clampDim(v int64) int {
	if v > int64(maxDimValue) {
		return maxDimValue + 1
	}
	return int(v)
}

// extent returns the dilated extent of a kernel of size k along spatial
// dim i, or false when it overflows.
func (w *Window) extent(i, k int) (int, bool) {
	d := w.Dilation(i)
	if k < 1 || (k > 1 && d > maxDimValue/(k-1)) {
		return 0, false
	}
	return (k-1)*d + 1, true
}

// Dim computes spatial dim i (of nd) of a convolution or pooling window
// over an input of size in with a kernel of size k: the output size as
// ONNX Runtime computes it and the pads the window sees. The error, which
// names no node, says why the window does not fit.
func (w *Window) Dim(i, nd, in, k int) (WindowDim, error) {
	dk, ok := w.extent(i, k)
	if !ok {
		return WindowDim{}, fmt.Errorf("kernel %d with dilation %d overflows", k, w.Dilation(i))
	}
	s := w.Stride(i)
	if in < 0 || in > maxDimValue {
		return WindowDim{}, fmt.Errorf("input size %d out of range", in)
	}
	switch w.AutoPad {
	case PadSameUpper, PadSameLower:
		o := ceilDivInt(in, s)
		total := 0
		if o > 0 {
			total = max(0, (o-1)*s+dk-in)
		}
		pb := total / 2
		if w.AutoPad == PadSameLower {
			pb = total - total/2
		}
		return WindowDim{Out: o, PadBegin: pb, PadEnd: total - pb}, nil
	}
	pb, pe := w.Pad(i, nd)
	if pb > maxDimValue || pe > maxDimValue {
		return WindowDim{}, fmt.Errorf("pads %d and %d overflow", pb, pe)
	}
	num := in + pb + pe - dk
	if num < 0 {
		return WindowDim{}, fmt.Errorf("padded input size %d smaller than kernel extent %d", in+pb+pe, dk)
	}
	var o int
	if w.CeilMode {
		o = ceilDivInt(num, s) + 1
		// The last window must start inside the input or its begin pad.
		if o-1 >= ceilDivInt(in+pb, s) {
			o--
		}
	} else {
		o = num/s + 1
	}
	return WindowDim{Out: o, PadBegin: pb, PadEnd: pe}, nil
}

// ceilDivInt returns a/b rounded up for a >= 0 and b > 0, without the
// overflow of (a+b-1)/b.
func ceilDivInt(a, b int) int {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// windowOut sets out[i] for each spatial dim of x, the kernel's dims
// being ws's or kernel_shape's (see kernelDim). An unknown input or
// kernel dim makes that output dim unknown.
func (w *Window) windowOut(c *InferCtx, x, ws, out []int) error {
	nd := len(x)
	for i := range nd {
		k := w.kernelDim(i, ws)
		if x[i] < 0 || k < 0 {
			out[i] = -1
			continue
		}
		d, err := w.Dim(i, nd, x[i], k)
		if err != nil {
			return c.Errorf("spatial dim %d: %v", i, err)
		}
		out[i] = d.Out
	}
	return nil
}
