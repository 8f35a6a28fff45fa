package gpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

func init() {
	register(buildConv, "Conv")
	register(buildConvTranspose, "ConvTranspose")
	register(buildPool, "MaxPool", "AveragePool")
}

// windowRule binds the node to its descriptor in package model, which
// parses and checks its attributes, and returns them as R.
func windowRule[R model.Rule](c *buildCtx) (R, error) {
	var a R
	_, r, err := model.BindNode(c.n, c.opset)
	if err != nil {
		return a, err
	}
	a, ok := r.(R)
	if !ok {
		return a, c.unsupported("no descriptor for the op")
	}
	return a, nil
}

// window2 holds the 1-D or 2-D window attributes (strides, pads,
// dilations) of a Conv or pool node as 2-D values; a 1-D window has height
// 1. Only explicit padding is taken (auto_pad NOTSET or VALID).
type window2 struct {
	sh, sw, ph, pw, peh, pew, dh, dw int
}

// window lifts a node's window attributes w, checked by its descriptor,
// for spatial dims.
func (c *buildCtx) window(w *model.Window, spatial int) (window2, error) {
	win := window2{sh: 1, sw: 1, dh: 1, dw: 1}
	if spatial != 1 && spatial != 2 {
		return win, c.unsupported("%d spatial dims; the kernels take 1 or 2", spatial)
	}
	if w.AutoPad != model.PadNotSet && w.AutoPad != model.PadValid {
		return win, c.unsupported("auto_pad %s", w.AutoPad)
	}
	if !w.Fits(spatial) {
		return win, c.invalid("strides %v, dilations %v, pads %v for %d spatial dims", w.Strides, w.Dilations, w.Pads, spatial)
	}
	if spatial == 1 {
		win.sw, win.dw = w.Stride(0), w.Dilation(0)
		win.pw, win.pew = w.Pad(0, 1)
		return win, nil
	}
	win.sh, win.sw, win.dh, win.dw = w.Stride(0), w.Stride(1), w.Dilation(0), w.Dilation(1)
	win.ph, win.peh = w.Pad(0, 2)
	win.pw, win.pew = w.Pad(1, 2)
	return win, nil
}

// hw returns a 1-D or 2-D spatial shape as height and width.
func hw(s []int) (int, int) {
	if len(s) == 1 {
		return 1, s[0]
	}
	return s[0], s[1]
}

func buildConv(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	w, err := c.input(1)
	if err != nil {
		return err
	}
	if err := c.want(w, payload.Float32); err != nil {
		return err
	}
	if len(x.shape) < 3 || len(w.shape) != len(x.shape) || len(y.shape) != len(x.shape) {
		return c.invalid("X %v, W %v, Y %v", x.shape, w.shape, y.shape)
	}
	a, err := windowRule[*model.ConvAttrs](c)
	if err != nil {
		return err
	}
	win, err := c.window(&a.Window, len(x.shape)-2)
	if err != nil {
		return err
	}
	group := int64(a.Group)
	ch, m := x.shape[1], w.shape[0]
	if group < 1 || ch%int(group) != 0 || m%int(group) != 0 || w.shape[1] != ch/int(group) || y.shape[1] != m {
		return c.invalid("X %v, W %v, group %d", x.shape, w.shape, group)
	}
	h, wd := hw(x.shape[2:])
	kh, kw := hw(w.shape[2:])
	oh, ow := hw(y.shape[2:])
	ca := ConvArgs{N: u32(y.numel()), C: u32(ch), H: u32(h), W: u32(wd), M: u32(m), OH: u32(oh), OW: u32(ow),
		KH: u32(kh), KW: u32(kw), Group: uint32(group), SH: int32(win.sh), SW: int32(win.sw), PH: int32(win.ph),
		PW: int32(win.pw), DH: int32(win.dh), DW: int32(win.dw)}
	bias := w
	if len(c.in) > 2 && c.in[2] != nil {
		bias = c.in[2]
		if err := c.want(bias, payload.Float32); err != nil {
			return err
		}
		if bias.numel() != m {
			return c.invalid("bias of %d elements for %d output channels", bias.numel(), m)
		}
		ca.HasBias = 1
	}
	if y.numel() == 0 {
		return nil
	}
	if c.useIm2Col(&ca, x.shape[0]) {
		var b *val
		if ca.HasBias != 0 {
			b = bias
		}
		return c.emitIm2ColConv(&ca, x.shape[0], x, w, b, y)
	}
	c.emit1D(KConv2D, Pack(nil, &ca), y.numel(), x, w, bias, y)
	return nil
}

// im2colMaxGroups is the most groups a Conv may have to be lowered to
// im2col and GEMM; depthwise and many-group convolutions stay direct.
const im2colMaxGroups = 16

// useIm2Col reports whether the configuration lowers a Conv through
// im2col: not depthwise (more than one input channel per group), few
// groups, and a column matrix within the tensor size cap.
func (c *buildCtx) useIm2Col(ca *ConvArgs, batch int) bool {
	if !c.pl.cfg.Im2Col || ca.Group > im2colMaxGroups || ca.C/ca.Group < 2 {
		return false
	}
	k := int(ca.C/ca.Group) * int(ca.KH*ca.KW)
	n := batch * int(ca.Group) * k * int(ca.OH*ca.OW)
	return n > 0 && n <= c.pl.maxBytes/4
}

// emitIm2ColConv lowers a convolution to an im2col_f32 launch that writes
// col [batch][group][K][OH*OW] (K = C/group*KH*KW) and one gemm_f32 step
// batched over (item, group): y[n][g*Mg+m][p] = sum_k w[g*Mg+m][k] *
// col[n][g][k][p], plus the bias: in the GEMM for one group, by a
// broadcast add for several.
func (c *buildCtx) emitIm2ColConv(ca *ConvArgs, batch int, x, w, bias, y *val) error {
	g := int(ca.Group)
	k := int(ca.C/ca.Group) * int(ca.KH*ca.KW)
	p := int(ca.OH * ca.OW)
	mg := int(ca.M) / g
	n := batch * g * k * p
	col, err := c.temp(payload.Float32, []int{batch, g, k, p})
	if err != nil {
		return err
	}
	ia := *ca
	ia.N, ia.HasBias = u32(n), 0
	c.emit1D(KIm2Col, Pack(nil, &ia), n, x, col)
	ga := GemmArgs{M: u32(mg), N: u32(p), K: u32(k), Batch: u32(batch * g), BRank: 1,
		SAM: int32(k), SAK: 1, SBK: int32(p), SBN: 1, Alpha: 1}
	// One group: a batch of items sharing the weights (A's batch stride
	// 0, B's K*P), which a vendor library runs as one strided batched
	// GEMM. Several: the batch is (item, group).
	ga.BShape[0], ga.BSA[0], ga.BSB[0] = int32(batch), 0, int32(k*p)
	if g > 1 {
		ga.BRank = 2
		ga.BShape[1] = int32(g)
		ga.BSA[1] = int32(mg * k)
		ga.BSB[0], ga.BSB[1] = int32(g*k*p), int32(k*p)
	}
	if bias != nil && g == 1 {
		ga.HasC, ga.Beta, ga.SCM, ga.SCN = 1, 1, 1, 0
		return c.emitGemm(&ga, w, col, bias, y)
	}
	if err := c.emitGemm(&ga, w, col, nil, y); err != nil {
		return err
	}
	if bias == nil {
		return nil
	}
	ba := BinaryArgs{N: u32(y.numel()), Op: BAdd, Rank: 3}
	fill(ba.Shape[:], []int{batch, int(ca.M), p})
	fill(ba.SA[:], []int{int(ca.M) * p, p, 1})
	fill(ba.SB[:], []int{0, 1, 0})
	c.emit1D(KBinary, Pack(nil, &ba), y.numel(), y, bias, y)
	return nil
}

func buildPool(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	if err := c.only(1); err != nil {
		return err
	}
	if len(x.shape) < 3 || len(y.shape) != len(x.shape) {
		return c.invalid("X %v, Y %v", x.shape, y.shape)
	}
	a, err := windowRule[*model.PoolAttrs](c)
	if err != nil {
		return err
	}
	win, err := c.window(&a.Window, len(x.shape)-2)
	if err != nil {
		return err
	}
	ks := a.Window.KernelShape
	if len(ks) != len(x.shape)-2 {
		return c.invalid("kernel_shape %v for input %v", ks, x.shape)
	}
	if a.ColumnMajor {
		return c.unsupported("storage_order 1")
	}
	k := make([]int, len(ks))
	for i, v := range ks {
		k[i] = int(v)
	}
	h, wd := hw(x.shape[2:])
	kh, kw := hw(k)
	oh, ow := hw(y.shape[2:])
	pa := PoolArgs{N: u32(y.numel()), H: u32(h), W: u32(wd), OH: u32(oh), OW: u32(ow), KH: u32(kh), KW: u32(kw),
		SH: int32(win.sh), SW: int32(win.sw), PH: int32(win.ph), PW: int32(win.pw), PEH: int32(win.peh), PEW: int32(win.pew),
		DH: int32(win.dh), DW: int32(win.dw)}
	if a.Kind == model.PoolMax {
		pa.IsMax = 1
	} else if a.CountIncludePad {
		pa.IncludePad = 1
	}
	if y.numel() == 0 {
		return nil
	}
	c.emit1D(KPool2D, Pack(nil, &pa), y.numel(), x, y)
	return nil
}

// buildConvTranspose lowers a 1-D or 2-D ConvTranspose to one
// convtranspose2d_f32 launch. The begin pads come from pads, or from
// auto_pad or output_shape as the CPU backend splits them; the output
// shape is the specialised graph's.
func buildConvTranspose(c *buildCtx) error {
	x, y, err := c.f32io()
	if err != nil {
		return err
	}
	w, err := c.input(1)
	if err != nil {
		return err
	}
	if err := c.want(w, payload.Float32); err != nil {
		return err
	}
	r := len(x.shape)
	if r < 3 || len(w.shape) != r || len(y.shape) != r {
		return c.invalid("X %v, W %v, Y %v", x.shape, w.shape, y.shape)
	}
	nd := r - 2
	if nd > 2 {
		return c.unsupported("%d spatial dims; the kernels take 1 or 2", nd)
	}
	a, err := windowRule[*model.ConvTransposeAttrs](c)
	if err != nil {
		return err
	}
	group := int64(a.Group)
	ch := x.shape[1]
	if w.shape[0] != ch || ch%int(group) != 0 {
		return c.invalid("X %v, W %v, group %d", x.shape, w.shape, group)
	}
	m := w.shape[1] * int(group)
	if y.shape[1] != m {
		return c.invalid("Y %v for %d output channels", y.shape, m)
	}
	if !a.Fits(nd) {
		return c.invalid("strides %v, dilations %v, pads %v, output_padding %v, output_shape %v for %d spatial dims",
			a.Window.Strides, a.Window.Dilations, a.Window.Pads, a.OutputPadding, a.OutputShape, nd)
	}
	strides, dils := make([]int, nd), make([]int, nd)
	pb := make([]int, nd)
	for i := range nd {
		d, err := a.Dim(i, nd, x.shape[i+2], w.shape[i+2])
		if err != nil {
			return c.invalid("spatial dim %d: %v", i, err)
		}
		strides[i], dils[i], pb[i] = a.Window.Stride(i), a.Window.Dilation(i), d.PadBegin
	}
	h, wd := hw(x.shape[2:])
	kh, kw := hw(w.shape[2:])
	oh, ow := hw(y.shape[2:])
	ca := ConvArgs{N: u32(y.numel()), C: u32(ch), H: u32(h), W: u32(wd), M: u32(m), OH: u32(oh), OW: u32(ow),
		KH: u32(kh), KW: u32(kw), Group: uint32(group), SH: 1, SW: int32(strides[nd-1]), DH: 1, DW: int32(dils[nd-1]),
		PW: int32(pb[nd-1])}
	if nd == 2 {
		ca.SH, ca.DH, ca.PH = int32(strides[0]), int32(dils[0]), int32(pb[0])
	}
	bias := w
	if len(c.in) > 2 && c.in[2] != nil {
		bias = c.in[2]
		if err := c.want(bias, payload.Float32); err != nil {
			return err
		}
		if bias.numel() != m {
			return c.invalid("bias of %d elements for %d output channels", bias.numel(), m)
		}
		ca.HasBias = 1
	}
	if y.numel() == 0 {
		return nil
	}
	c.emit1D(KConvTranspose, Pack(nil, &ca), y.numel(), x, w, bias, y)
	return nil
}
