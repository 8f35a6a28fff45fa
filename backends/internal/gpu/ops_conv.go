package gpu

import "github.com/lintel-ml/lintel/payload"

func init() {
	register(buildConv, "Conv")
	register(buildConvTranspose, "ConvTranspose")
	register(buildPool, "MaxPool", "AveragePool")
}

// window2 reads the 1-D or 2-D window attributes (strides, pads,
// dilations) of a Conv or pool node as 2-D values; a 1-D window has height
// 1. Only explicit padding is taken (auto_pad NOTSET or VALID).
type window2 struct {
	sh, sw, ph, pw, peh, pew, dh, dw int
}

func (c *buildCtx) window(spatial int) (window2, error) {
	w := window2{sh: 1, sw: 1, dh: 1, dw: 1}
	if spatial != 1 && spatial != 2 {
		return w, c.unsupported("%d spatial dims; the kernels take 1 or 2", spatial)
	}
	ap, err := c.n.String("auto_pad", "NOTSET")
	if err != nil {
		return w, err
	}
	if ap != "NOTSET" && ap != "VALID" {
		return w, c.unsupported("auto_pad %s", ap)
	}
	ones := make([]int64, spatial)
	for i := range ones {
		ones[i] = 1
	}
	s, err := c.n.Ints("strides", ones)
	if err != nil {
		return w, err
	}
	d, err := c.n.Ints("dilations", ones)
	if err != nil {
		return w, err
	}
	p, err := c.n.Ints("pads", make([]int64, 2*spatial))
	if err != nil {
		return w, err
	}
	if ap == "VALID" {
		p = make([]int64, 2*spatial)
	}
	if len(s) != spatial || len(d) != spatial || len(p) != 2*spatial {
		return w, c.invalid("strides %v, dilations %v, pads %v for %d spatial dims", s, d, p, spatial)
	}
	for i := range spatial {
		if s[i] < 1 || d[i] < 1 || p[i] < 0 || p[i+spatial] < 0 {
			return w, c.invalid("strides %v, dilations %v, pads %v", s, d, p)
		}
	}
	if spatial == 1 {
		w.sw, w.dw, w.pw, w.pew = int(s[0]), int(d[0]), int(p[0]), int(p[1])
		return w, nil
	}
	w.sh, w.sw, w.dh, w.dw = int(s[0]), int(s[1]), int(d[0]), int(d[1])
	w.ph, w.pw, w.peh, w.pew = int(p[0]), int(p[1]), int(p[2]), int(p[3])
	return w, nil
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
	win, err := c.window(len(x.shape) - 2)
	if err != nil {
		return err
	}
	group, err := c.n.Int("group", 1)
	if err != nil {
		return err
	}
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
	win, err := c.window(len(x.shape) - 2)
	if err != nil {
		return err
	}
	ks, err := c.n.Ints("kernel_shape", nil)
	if err != nil {
		return err
	}
	if len(ks) != len(x.shape)-2 {
		return c.invalid("kernel_shape %v for input %v", ks, x.shape)
	}
	if so, err := c.n.Int("storage_order", 0); err != nil {
		return err
	} else if so != 0 {
		return c.unsupported("storage_order %d", so)
	}
	k := make([]int, len(ks))
	for i, v := range ks {
		if v < 1 {
			return c.invalid("kernel_shape %v", ks)
		}
		k[i] = int(v)
	}
	h, wd := hw(x.shape[2:])
	kh, kw := hw(k)
	oh, ow := hw(y.shape[2:])
	pa := PoolArgs{N: u32(y.numel()), H: u32(h), W: u32(wd), OH: u32(oh), OW: u32(ow), KH: u32(kh), KW: u32(kw),
		SH: int32(win.sh), SW: int32(win.sw), PH: int32(win.ph), PW: int32(win.pw), PEH: int32(win.peh), PEW: int32(win.pew),
		DH: int32(win.dh), DW: int32(win.dw)}
	if c.n.OpType == "MaxPool" {
		pa.IsMax = 1
	} else {
		cip, err := c.n.Int("count_include_pad", 0)
		if err != nil {
			return err
		}
		if cip != 0 {
			pa.IncludePad = 1
		}
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
	group, err := c.n.Int("group", 1)
	if err != nil {
		return err
	}
	ch := x.shape[1]
	if group < 1 || w.shape[0] != ch || ch%int(group) != 0 {
		return c.invalid("X %v, W %v, group %d", x.shape, w.shape, group)
	}
	m := w.shape[1] * int(group)
	if y.shape[1] != m {
		return c.invalid("Y %v for %d output channels", y.shape, m)
	}
	ap, err := c.n.String("auto_pad", "NOTSET")
	if err != nil {
		return err
	}
	switch ap {
	case "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER":
	default:
		return c.unsupported("auto_pad %s", ap)
	}
	ints := func(name string, n int, def int64) ([]int64, error) {
		d := make([]int64, n)
		for i := range d {
			d[i] = def
		}
		v, err := c.n.Ints(name, d)
		if err == nil && len(v) != n {
			err = c.invalid("%s %v for %d spatial dims", name, v, nd)
		}
		return v, err
	}
	strides, err := ints("strides", nd, 1)
	if err != nil {
		return err
	}
	dils, err := ints("dilations", nd, 1)
	if err != nil {
		return err
	}
	pads, err := ints("pads", 2*nd, 0)
	if err != nil {
		return err
	}
	outPad, err := ints("output_padding", nd, 0)
	if err != nil {
		return err
	}
	outShape, err := c.n.Ints("output_shape", nil)
	if err != nil {
		return err
	}
	pb := make([]int, nd)
	for i := range nd {
		in, kk := x.shape[i+2], w.shape[i+2]
		s, d := int(strides[i]), int(dils[i])
		if s < 1 || d < 1 || outPad[i] < 0 {
			return c.invalid("strides %v, dilations %v, output_padding %v", strides, dils, outPad)
		}
		full := s*(in-1) + int(outPad[i]) + (kk-1)*d + 1
		switch {
		case outShape != nil || ap == "SAME_UPPER" || ap == "SAME_LOWER":
			o := in * s
			if outShape != nil {
				if len(outShape) < nd {
					return c.invalid("output_shape %v for %d spatial dims", outShape, nd)
				}
				o = int(outShape[len(outShape)-nd+i])
			}
			total := full - o
			if total < 0 && outShape == nil {
				total = 0
			}
			switch {
			case total < 0:
				pb[i] = 0
			case ap == "SAME_UPPER":
				pb[i] = total / 2
			default:
				pb[i] = total - total/2
			}
		case ap == "NOTSET":
			pb[i] = int(pads[i])
		}
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
