package model

import "github.com/lintel-ml/lintel/internal/errs"

func init() {
	RegisterOp(&Op{
		Type:       "DeformConv",
		Versions:   []Version{{Since: 19, MinIn: 3, MaxIn: 5, MaxOut: 1}},
		InputNames: []string{"X", "W", "offset", "B", "mask"},
		Bind: func(n *Node, opset int64) (Rule, error) {
			a := &DeformConvAttrs{}
			var err error
			if a.Window, a.Group, err = bindConvCommon(n); err != nil {
				return nil, err
			}
			if a.Window.AutoPad != PadNotSet {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): the op has no auto_pad attribute", n.Label(), n.OpType)
			}
			og, err := n.Int("offset_group", 1)
			if err != nil {
				return nil, err
			}
			if og < 1 || og > 1<<31 {
				return nil, errs.New(errs.InvalidArtifact, "node %q (%s): offset_group %d", n.Label(), n.OpType, og)
			}
			a.OffsetGroup = int(og)
			return a, nil
		},
	})
}

// DeformConvAttrs are a DeformConv node's attributes. X is N×C×D1…Dk and
// W is M×(C/Group)×K1…Kk, as for Conv; each kernel tap of each output
// element reads X at its place moved by the offset input
// (N×(OffsetGroup·2·∏K)×O1…Ok, the tap's (y, x) shift), bilinearly
// interpolated and scaled by the optional mask
// (N×(OffsetGroup·∏K)×O1…Ok). B has M values. The output is N×M×O1…Ok.
type DeformConvAttrs struct {
	// Window is the window: kernel_shape, strides, dilations and pads.
	Window Window
	// Group is group.
	Group int
	// OffsetGroup is offset_group: the input channels split into that
	// many groups, each with offsets and mask of its own.
	OffsetGroup int
}

// Infer implements Rule.
func (a *DeformConvAttrs) Infer(c *InferCtx) error {
	r, x, w, m, err := convGroups(c, &a.Window, a.Group)
	if err != nil || r < 0 {
		return err
	}
	nd := r - 2
	if x[1] >= 0 && x[1]%a.OffsetGroup != 0 {
		return c.Errorf("%d input channels not divisible by offset_group %d", x[1], a.OffsetGroup)
	}
	if b, ok := c.Dims(3); ok && (len(b) != 1 || dimsConflict(b[0], m)) {
		return c.Errorf("bias of shape %v for %d output channels", b, m)
	}
	if err := checkKernel(c, &a.Window, w[2:]); err != nil {
		return err
	}
	out := c.OutDims(0, r)
	out[0], out[1] = x[0], m
	if err := a.Window.windowOut(c, x[2:], w[2:], out[2:]); err != nil {
		return err
	}
	// The offsets and mask: one (y, x) pair, or one scale, per kernel tap
	// and offset group at each output place.
	taps := 1
	for i := range nd {
		k := a.Window.kernelDim(i, w[2:])
		if k < 0 || taps < 0 {
			taps = -1
			continue
		}
		if taps > maxDimValue/k/2/a.OffsetGroup {
			return c.Errorf("kernel %v too large", w)
		}
		taps *= k
	}
	for _, in := range []struct {
		i, per int
		name   string
	}{{2, 2, "offset"}, {4, 1, "mask"}} {
		o, ok := c.Dims(in.i)
		if !ok {
			continue
		}
		if len(o) != r {
			return c.Errorf("%s of shape %v: want rank %d", in.name, o, r)
		}
		want := -1
		if taps >= 0 {
			want = taps * in.per * a.OffsetGroup
		}
		bad := dimsConflict(o[0], out[0]) || dimsConflict(o[1], want)
		for i := range nd {
			bad = bad || dimsConflict(o[2+i], out[2+i])
		}
		if bad {
			return c.Errorf("%s of shape %v: want %d×%d×%v", in.name, o, out[0], want, out[2:])
		}
	}
	return checkNumel(c, out)
}
