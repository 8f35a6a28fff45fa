package model

import (
	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	RegisterOp(&Op{
		Type:       "Col2Im",
		Versions:   []Version{{Since: 18, MinIn: 3, MaxIn: 3, MaxOut: 1, Values: []int{1, 2}}},
		InputNames: []string{"input", "image_shape", "block_shape"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &Col2ImAttrs{}
			var err error
			if a.Window, err = bindWindow(n, false); err != nil {
				return nil, err
			}
			if a.Window.KernelShape != nil || a.Window.AutoPad != PadNotSet {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): the op has no kernel_shape or auto_pad attribute", n.Label(), n.OpType)
			}
			return a, nil
		},
	})
}

// Col2ImAttrs are a Col2Im node's attributes. The input is
// N×(C·∏block)×L, L blocks of block_shape elements per channel; the
// output is N×C×image_shape, where each block is added in at its place
// in the sliding window (the inverse of an im2col), L being the number of
// places the window takes.
type Col2ImAttrs struct {
	// Window holds dilations, pads and strides; its KernelShape is nil
	// (the block_shape input gives it).
	Window Window
}

// Infer implements Rule.
func (a *Col2ImAttrs) Infer(c *InferCtx) error {
	c.SetType(0, c.DType(0))
	for i := 1; i < 3; i++ {
		if dt := c.DType(i); dt != payload.Int64 && dt != payload.Undefined {
			return c.Errorf("input %d has element type %s, want int64", i, dt)
		}
		if r := c.Rank(i); r >= 0 && r != 1 {
			return c.Errorf("input %d has rank %d, want 1", i, r)
		}
	}
	x, xok := c.Dims(0)
	if xok && len(x) != 3 {
		return c.Errorf("input of shape %v: want N×(C·∏block)×L", x)
	}
	nd := c.VecLen(1)
	if l := c.VecLen(2); nd < 0 || (l >= 0 && l != nd) {
		if nd >= 0 && l >= 0 {
			return c.Errorf("image_shape has %d values and block_shape %d", nd, l)
		}
		nd = l
	}
	if nd < 0 {
		c.SetUnranked(0)
		return nil
	}
	if err := c.RankOK(nd + 2); err != nil {
		return err
	}
	if nd == 0 || !a.Window.Fits(nd) {
		return c.Errorf("%d spatial dims for dilations %v, pads %v and strides %v", nd, a.Window.Dilations, a.Window.Pads, a.Window.Strides)
	}
	out := c.OutDims(0, nd+2)
	for i := range out {
		out[i] = -1
	}
	img, iok := c.Ints(1)
	blk, bok := c.Ints(2)
	if iok {
		for i, v := range img {
			d, err := c.Dim(v, "image_shape")
			if err != nil {
				return err
			}
			out[2+i] = d
		}
	}
	if xok {
		out[0] = x[0]
	}
	if !bok {
		return nil
	}
	prod := 1
	for _, v := range blk {
		if v < 1 || v > int64(maxDimValue) {
			return c.Errorf("block_shape %v has a non-positive entry", blk)
		}
		if prod > maxDimValue/int(v) {
			return c.Errorf("block_shape %v: element count overflows", blk)
		}
		prod *= int(v)
	}
	if !xok || x[1] < 0 {
		return nil
	}
	if x[1]%prod != 0 {
		return c.Errorf("input of shape %v: dim 1 is not a multiple of the block's %d elements", x, prod)
	}
	out[1] = x[1] / prod
	if !iok || x[2] < 0 {
		return nil
	}
	l := 1
	for i := range nd {
		d, err := a.Window.Dim(i, nd, out[2+i], int(blk[i]))
		if err != nil {
			return c.Errorf("spatial dim %d: %v", i, err)
		}
		if d.Out > 0 && l > maxDimValue/d.Out {
			return c.Errorf("too many blocks")
		}
		l *= d.Out
	}
	if l != x[2] {
		return c.Errorf("input of shape %v: %d blocks, the window takes %d places", x, x[2], l)
	}
	return nil
}
