package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// convKernel runs Conv over 1 to 3 spatial dims: im2col and a matrix
// multiply per image and group, direct kernels for float32 windows of 1
// or 2 spatial dims that directTakes accepts (conv_direct.go), a direct
// loop for depthwise filters, and no unrolling at all for 1×1 filters
// with unit strides and no padding.
type convKernel struct {
	n     *model.Node
	dt    payload.DType
	win   *model.Window
	group int
	// Set by shape.
	g                geom
	batch, inC, outC int
	// col is the im2col scratch, grown only when too small.
	col32 []float32
	col64 []float64
	// gc runs the float32 products; pw holds constant float32 weights
	// packed at build in the options' weight format, one matrix
	// (M/group × C/group·kernel) per group, of shape pwShape; nil
	// otherwise, or when only the direct path needs them.
	gc      *gemmCtx
	pw      []gemmA
	pwShape []int
	// dw32 holds the same weights packed for the direct kernels (see
	// packDirect), one matrix per group, when their windows are short
	// enough; nil otherwise. dp runs them.
	dw32 [][]float32
	dp   directPlan
	// ep is the fused activation, if any (float32 only).
	ep *gemmEpilogue
	// dw runs float32 depthwise filters; dwt those of one filter per
	// channel over small planes.
	dw  dwPlan
	dwt dwTilePlan
	// pwg runs float32 1×1 windows of few channels a group
	// (op_conv_pwgroup.go).
	pwg pwGroupPlan
	// gep is the epilogue of the float32 products: the group's bias by
	// row, then ep's activation. packed holds the unrolled windows of one
	// image and group as a packed B, grown only when too small, which
	// im2col fills.
	gep    gemmEpilogue
	packed []float32
	// sub and subOdd hold an image subsampled for strided 1×1 windows
	// and the deinterleave's scratch (op_conv_subsample.go), grown only
	// when too small.
	sub, subOdd []float32
	short       conv1dShort // short 1-D convolutions (op_conv1d.go)
	im2col      im2colPack
	// longB holds constant float32 weights of long strided windows
	// (longWeights) packed as the product's B, of shape longShape;
	// longPad and longC are the padded signal and the transposed output,
	// grown only when too small (op_conv_long.go).
	longB          gemmB
	longShape      []int
	longPad, longC []float32
	// smallB holds constant float32 weights of the small-plane path
	// (op_conv_small.go), one B per group, of shape smallShape; smallXT,
	// smallA and smallC are its transposed image, windows and transposed
	// output, grown only when too small.
	smallB                  []gemmB
	smallShape              []int
	smallXT, smallA, smallC []float32
}

func init() {
	register("Conv", viaF32(buildConv))
}

func buildConv(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.ConvAttrs)
	dt, err := convTypes(c, &a.Window, a.Group)
	if err != nil {
		return nil, err
	}
	k := &convKernel{n: c.n, dt: dt, win: &a.Window, group: a.Group}
	if k.ep, err = fusedEpilogue(c, dt, false); err != nil {
		return nil, err
	}
	if dt == payload.Float32 {
		k.gc = c.gemmCtx()
		// Long strided windows get only the long path's layout; other
		// geometries of the same weights read them unpacked.
		if err := k.prepackLong(c, c.constInput(1)); err != nil {
			return nil, err
		}
		small, err := k.prepackSmall(c, c.constInput(1))
		if err != nil {
			return nil, err
		}
		if !k.longB.prepacked() && !small {
			if err := k.prepack(c, c.constInput(1)); err != nil {
				return nil, err
			}
		}
	}
	return k, nil
}

// convShapes refuses the shapes the Conv and ConvTranspose kernels do
// not handle: more spatial dims than maxSpatial. The descriptors' rules
// have checked the rest (ranks, channels, kernel_shape, bias).
func convShapes(n *model.Node, in []*tensor) error {
	x, w := in[0].shape, in[1].shape
	if len(x) < 3 || len(x) > 2+maxSpatial {
		return shapeErr(n, "input %v must be N×C×D1… with 1 to %d spatial dims", x, maxSpatial)
	}
	if len(w) != len(x) {
		return shapeErr(n, "weights %v and input %v differ in rank", w, x)
	}
	return nil
}

// shape plans the window geometry; the output's shape is the rule's
// (model.ConvAttrs).
func (k *convKernel) shape(in, out []*tensor) error {
	if err := convShapes(k.n, in); err != nil {
		return err
	}
	x, w := in[0].shape, in[1].shape
	if err := fillWindow(k.n, k.win, &k.g, x[2:], w[2:]); err != nil {
		return err
	}
	k.batch, k.inC, k.outC = x[0], x[1], w[0]
	return nil
}

func (k *convKernel) run(in, out []*tensor) error {
	var b *tensor
	if len(in) > 2 {
		b = in[2]
	}
	switch k.dt {
	case payload.Float32:
		var bv []float32
		if b != nil {
			bv = b.f32()
		}
		// Long strided windows over a signal run as one product per image.
		if k.longB.prepacked() && longFits(&k.g) && sameShape(in[1].shape, k.longShape) {
			k.convLong(in[0].f32(), bv, out[0].f32())
			return nil
		}
		// Small planes of many channels run as one swapped product.
		if sb := k.smallFor(in[1].shape); sb != nil {
			k.convSmall(in[0].f32(), bv, out[0].f32(), sb)
			return nil
		}
		convRun(k, in[0].f32(), in[1].f32(), bv, out[0].f32(), &k.col32, k.packedFor(in[1].shape), k.directFor(in[1].shape))
	case payload.Float64:
		var bv []float64
		if b != nil {
			bv = b.f64()
		}
		convRun(k, in[0].f64(), in[1].f64(), bv, out[0].f64(), &k.col64, nil, nil)
	}
	return nil
}

// pointwise reports whether g is a 1×1 window with unit strides and no
// padding, whose im2col is the input itself.
func (g *geom) pointwise() bool {
	for i := range maxSpatial {
		if g.k[i] != 1 || g.s[i] != 1 || g.pb[i] != 0 || g.pe[i] != 0 {
			return false
		}
	}
	return true
}

// prepack packs constant float32 weights w, when given and shaped as
// Conv weights, one group at a time; depthwise weights stay as they are.
// The packed panels are read-only and shared by the artifact's instances.
func (k *convKernel) prepack(c *buildCtx, w *model.Tensor) error {
	if w == nil || len(w.Shape) < 3 || w.Shape[0]%k.group != 0 {
		return nil
	}
	v, err := model.View[float32](w)
	if err != nil {
		return err
	}
	mg := w.Shape[0] / k.group
	kdim := len(v) / max(w.Shape[0], 1)
	if mg == 1 && w.Shape[1] == 1 {
		return nil
	}
	hk, err := weightHalf(c.opts.WeightType)
	if err != nil {
		return err
	}
	// Windows the direct kernels take get their layout. When the input's
	// spatial shape is known, only the path it takes is packed; when not,
	// short windows get both layouts and longer ones the SGEMM's. Weights
	// stored in half precision go through the SGEMM path only, so that
	// they stay half the bytes.
	packGemm, packDirect := true, hk == halfNone && directWeights(w.Shape, kdim)
	if packDirect {
		if g, ok := k.staticGeom(c, w.Shape); ok {
			// The short 1-D path (op_conv1d.go) reads the SGEMM's layout.
			packDirect = directTakes(&g, kdim) && !(kdim > 0 && conv1dShortFits(&g, k.group, w.Shape[0]))
			packGemm = !packDirect
		} else {
			packDirect = kdim <= directShortK
		}
	}
	if packGemm {
		k.pw, err = shareValue(c, "packedW", func() ([]gemmA, error) {
			if err := checkHalfRange(c, w.Name, v, hk); err != nil {
				return nil, err
			}
			pw := make([]gemmA, k.group)
			for g := range k.group {
				wg := v[g*mg*kdim : (g+1)*mg*kdim]
				if hk == halfNone {
					pw[g] = gemmA{packed: prepackA(wg, kdim, false, 1, mg, kdim)}
				} else {
					pw[g] = gemmA{half: prepackAHalf(wg, kdim, false, 1, mg, kdim, hk), hk: hk}
				}
			}
			return pw, nil
		})
		if err != nil {
			return err
		}
	}
	if packDirect {
		k.dw32, err = shareValue(c, "directW", func() ([][]float32, error) {
			dw := make([][]float32, k.group)
			for g := range k.group {
				dw[g] = packDirectW(v[g*mg*kdim:(g+1)*mg*kdim], mg, kdim)
			}
			return dw, nil
		})
		if err != nil {
			return err
		}
	}
	k.pwShape = w.Shape
	return nil
}

// staticGeom returns the window geometry of the node's input shape as
// the graph gives it at load, when every dim but the batch is known.
func (k *convKernel) staticGeom(c *buildCtx, ws []int) (geom, bool) {
	var g geom
	if len(c.in) == 0 || !c.in[0].RankKnown || len(c.in[0].Shape) != len(ws) {
		return g, false
	}
	xs := c.in[0].Shape
	for _, d := range xs[1:] {
		if d <= 0 {
			return g, false
		}
	}
	if xs[1] != ws[1]*k.group || fillWindow(c.n, k.win, &g, xs[2:], ws[2:]) != nil {
		return g, false
	}
	return g, true
}

// directFor returns the weights packed for the direct kernels when they
// match shape, else nil.
func (k *convKernel) directFor(shape []int) [][]float32 {
	if k.dw32 == nil || !sameShape(shape, k.pwShape) {
		return nil
	}
	return k.dw32
}

// packedFor returns the packed weights when they match shape, else nil.
func (k *convKernel) packedFor(shape []int) []gemmA {
	if k.pw == nil || !sameShape(shape, k.pwShape) {
		return nil
	}
	return k.pw
}

func convRun[E float32 | float64](k *convKernel, x, w, bias, y []E, col *[]E, pw []gemmA, dw [][]float32) {
	g := &k.g
	inSz, outSz, kSz := size3(g.in), size3(g.out), size3(g.k)
	cg, mg := k.inC/k.group, k.outC/k.group
	kdim := cg * kSz
	depthwise := cg == 1 && mg == 1
	pointwise := g.pointwise()
	f32 := unsafe.Sizeof(*new(E)) == 4
	if f32 && pwGroupTakes(g, cg, mg) {
		k.pwg.conv(k.gc.pool, g, f32s(x), f32s(w), f32s(bias), f32s(y), k.batch, k.group, cg, mg, &k.sub, &k.subOdd, k.ep)
		return
	}
	// The direct kernels take the windows directTakes accepts, when their
	// weights were packed for them at load.
	direct := f32 && !depthwise && !pointwise && dw != nil && directTakes(g, kdim)
	if direct && len(pw) > 0 && k.short.takes(k, g, pw[0]) {
		// 1-D outputs of a few positions go to the short path
		// (op_conv1d.go), which wastes no panel columns on them.
		direct = false
	}
	if !depthwise && !pointwise && !f32 && len(*col) < kdim*outSz {
		*col = make([]E, kdim*outSz)
	}
	// Strided 1×1 windows run as products over the image subsampled.
	sub := f32 && !depthwise && !pointwise && !direct && g.subsampledPointwise() &&
		!(len(pw) > 0 && k.short.takes(k, g, pw[0]))
	if sub {
		pointwise = true
		k.sub = growF32(&k.sub, k.inC*outSz)
	}
	if !depthwise && !pointwise && f32 && !direct {
		if need := packedBSize(kdim, outSz); len(k.packed) < need {
			k.packed = make([]float32, need)
		}
	}
	if k.ep != nil {
		k.gep.act = k.ep.act
	}
	// Depthwise filters (any number per channel) run on dwPlan, all
	// images and planes in one call.
	if cg == 1 && f32 && dwTileFits(g, mg) {
		k.dwt.conv(k.gc.pool, g, f32s(x), f32s(w), f32s(bias), f32s(y), k.batch, k.outC, k.ep)
		return
	}
	if cg == 1 && f32 && dwFits(g) {
		k.dw.conv(k.gc.pool, g, f32s(x), f32s(w), f32s(bias), f32s(y), k.batch, k.outC, mg, k.ep)
		return
	}
	for n := range k.batch {
		if sub {
			subsample(g, f32s(x[n*k.inC*inSz:(n+1)*k.inC*inSz]), k.inC, k.sub, &k.subOdd)
		}
		for grp := range k.group {
			xg := x[(n*k.inC+grp*cg)*inSz : (n*k.inC+(grp+1)*cg)*inSz]
			if sub {
				xg = fromF32s[E](k.sub[grp*cg*outSz : (grp+1)*cg*outSz])
			}
			yg := y[(n*k.outC+grp*mg)*outSz : (n*k.outC+(grp+1)*mg)*outSz]
			wg := w[grp*mg*kdim : (grp+1)*mg*kdim]
			if depthwise {
				var b E
				if bias != nil {
					b = bias[grp]
				}
				depthwiseConv(g, xg, wg, b, yg)
				if k.ep != nil {
					k.ep.act.apply(f32s(yg))
				}
				continue
			}
			if f32 {
				var bg []float32
				if bias != nil {
					bg = f32s(bias[grp*mg : (grp+1)*mg])
				}
				if direct {
					k.dp.conv(k.gc.pool, &k.gc.dpad, g, f32s(xg), cg, dw[grp], bg, f32s(yg), mg, k.ep)
					continue
				}
				var pa gemmA
				if pw != nil {
					pa = pw[grp]
				}
				k.conv32(f32s(xg), f32s(wg), bg, f32s(yg), pa, pointwise)
				continue
			}
			var beta E
			if bias != nil {
				for o := range mg {
					v := bias[grp*mg+o]
					row := yg[o*outSz : (o+1)*outSz]
					for i := range row {
						row[i] = v
					}
				}
				beta = 1
			}
			src := xg
			if !pointwise {
				src = (*col)[:kdim*outSz]
				im2col(g, xg, cg, src)
			}
			gemmFused(k.gc, nil, false, false, mg, outSz, kdim, wg, kdim, src, outSz, beta, yg, outSz, k.ep)
		}
	}
}

// conv32 convolves one image and group in float32 on the packed SGEMM:
// the filters wg (prepacked in pa when pa is packed) times the windows of xg,
// unrolled straight into packed panels (or xg itself for pointwise
// filters), then the bias bg (nil: none) and the fused activation, block
// by block.
func (k *convKernel) conv32(xg, wg, bg, yg []float32, pa gemmA, pointwise bool) {
	if k.short.run(k, xg, wg, bg, yg, pa) {
		return
	}
	g := &k.g
	outSz := size3(g.out)
	cg, mg := k.inC/k.group, k.outC/k.group
	kdim := cg * size3(g.k)
	ga := gemmA{data: wg, ld: kdim}
	if pa.packed != nil || pa.half != nil {
		ga = pa
	}
	gb := gemmB{data: xg, ld: outSz}
	if !pointwise {
		k.im2col.pack(k.gc.pool, k.packed, g, xg, cg)
		gb = gemmB{packed: k.packed}
	}
	var ep *gemmEpilogue
	if bg != nil || k.ep != nil {
		k.gep.rowBias = bg
		ep = &k.gep
	}
	k.gc.runFused(mg, outSz, kdim, 1, ga, gb, 0, yg, outSz, ep)
	k.gep.rowBias = nil
}

// convTypes checks what the Conv and ConvTranspose kernels share: the
// element type (float32 or float64 for every input), which it returns,
// the group and the window's rank.
func convTypes(c *buildCtx, w *model.Window, group int) (payload.DType, error) {
	if err := c.needTypes(payload.Float32, payload.Float64); err != nil {
		return 0, err
	}
	dt := c.inType(0)
	if c.inType(1) != dt || (c.n.Input(2) != "" && c.inType(2) != dt) {
		return 0, c.invalid("inputs of mixed element types %s, %s, %s", dt, c.inType(1), c.inType(2))
	}
	if group > 1<<20 {
		return 0, c.invalid("group %d", group)
	}
	if err := checkWindow(c, w); err != nil {
		return 0, err
	}
	return dt, nil
}
