package model

import "github.com/lintel-ml/lintel/payload"

func init() {
	RegisterOp(&Op{
		Type: "MaxUnpool",
		Versions: []Version{
			{Since: 9, MinIn: 2, MaxIn: 2, MaxOut: 1},
			// Opset 11 adds the output_shape input.
			{Since: 11, MinIn: 2, MaxIn: 3, MaxOut: 1, Values: []int{2}},
		},
		InputNames: []string{"X", "I", "output_shape"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &MaxUnpoolAttrs{}
			var err error
			if a.Window, err = bindWindow(n, false); err != nil {
				return nil, err
			}
			if a.Window.KernelShape == nil {
				return nil, attrMissing(n, "kernel_shape")
			}
			if a.Window.Dilations != nil || a.Window.AutoPad != PadNotSet {
				return nil, attrErr(n, "the op has no dilations or auto_pad attribute")
			}
			return a, nil
		},
	})
}

// MaxUnpoolAttrs are a MaxUnpool node's attributes. X and the int64
// indices I are N×C×D1…Dk, as MaxPool's outputs; the output is zeros but
// for each X element, written at the flat index its I element gives. Its
// shape is the output_shape input's, or N×C×O1…Ok with Oi =
// (Di-1)·stride + kernel - pads.
type MaxUnpoolAttrs struct {
	// Window holds kernel_shape (always set), strides and pads.
	Window Window
}

// Infer implements Rule.
func (a *MaxUnpoolAttrs) Infer(c *InferCtx) error {
	w := &a.Window
	nd := len(w.KernelShape)
	c.SetType(0, c.DType(0))
	if dt := c.DType(1); dt != payload.Int64 && dt != payload.Undefined {
		return c.Errorf("I has element type %s, want int64", dt)
	}
	x, xok := c.Dims(0)
	if i, ok := c.Dims(1); ok {
		if xok && !dimsAgree(x, i) {
			return c.Errorf("X of shape %v and I of shape %v differ", x, i)
		}
		if !xok {
			x, xok = i, true
		}
	}
	if xok && len(x) != nd+2 {
		return c.Errorf("kernel_shape %v for input rank %d", w.KernelShape, len(x))
	}
	if !w.Fits(nd) {
		return w.fitErr(c, nd)
	}
	if err := c.RankOK(nd + 2); err != nil {
		return err
	}
	if c.Has(2) {
		if r := c.Rank(2); r >= 0 && r != 1 {
			return c.Errorf("output_shape has rank %d, want 1", r)
		}
		if l := c.VecLen(2); l >= 0 && l != nd+2 {
			return c.Errorf("output_shape has %d values for rank %d", l, nd+2)
		}
		v, ok := c.Ints(2)
		if !ok {
			c.SetUnknownDims(0, nd+2)
			return nil
		}
		out := c.OutDims(0, nd+2)
		for i, s := range v {
			d, err := c.Dim(s, "output_shape")
			if err != nil {
				return err
			}
			out[i] = d
		}
		if xok && (dimsConflict(out[0], x[0]) || dimsConflict(out[1], x[1])) {
			return c.Errorf("output_shape %v for input of shape %v", v, x)
		}
		return checkNumel(c, out)
	}
	if !xok {
		c.SetUnknownDims(0, nd+2)
		return nil
	}
	out := c.OutDims(0, nd+2)
	out[0], out[1] = x[0], x[1]
	for i := range nd {
		if x[2+i] < 0 {
			out[2+i] = -1
			continue
		}
		pb, pe := w.Pad(i, nd)
		s, k := w.Stride(i), clampDim(w.KernelShape[i])
		if x[2+i] > 0 && s > maxDimValue/x[2+i] {
			return c.Errorf("spatial dim %d: output too large", i)
		}
		o := (x[2+i]-1)*s + k - pb - pe
		if o < 0 || o > maxDimValue {
			return c.Errorf("spatial dim %d: output size %d", i, o)
		}
		out[2+i] = o
	}
	return checkNumel(c, out)
}

// dimsAgree reports whether a and b have one rank and equal dims where
// both are known.
func dimsAgree(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if dimsConflict(a[i], b[i]) {
			return false
		}
	}
	return true
}
