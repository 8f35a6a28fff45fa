package cpu

import (
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// convTransposeKernel runs ConvTranspose over 1 to 3 spatial dims: per
// image and group, a matrix multiply Wᵀ·X into columns, then col2im adds
// them into the output. Its geometry g is that of the forward convolution
// from the output (g.in) to the input (g.out).
type convTransposeKernel struct {
	n                *model.Node
	dt               payload.DType
	attrs            *model.ConvTransposeAttrs
	group            int
	g                geom
	batch, inC, outC int
	col32            []float32
	col64            []float64
	// gc runs the float32 products.
	gc *gemmCtx
	// scatter writes the output of a float32 ConvTranspose whose kernel
	// tiles the output (convTScatter).
	scatter convTScatter
}

func init() {
	register("ConvTranspose", viaF32(buildConvTranspose))
}

func buildConvTranspose(c *buildCtx) (kernel, error) {
	a := c.rule.(*model.ConvTransposeAttrs)
	dt, err := convTypes(c, &a.Window, a.Group)
	if err != nil {
		return nil, err
	}
	if len(c.in) > 0 && c.in[0].RankKnown && !a.Fits(len(c.in[0].Shape)-2) {
		nd := len(c.in[0].Shape) - 2
		return nil, c.invalid("output_padding %v, output_shape %v for %d spatial dims", a.OutputPadding, a.OutputShape, nd)
	}
	return &convTransposeKernel{n: c.n, dt: dt, attrs: a, group: a.Group, gc: c.gemmCtx()}, nil
}

// shape plans the geometry of the forward convolution from the output
// back to the input; the output's shape is the rule's
// (model.ConvTransposeAttrs).
func (k *convTransposeKernel) shape(in, out []*tensor) error {
	if err := convShapes(k.n, in); err != nil {
		return err
	}
	x, w := in[0].shape, in[1].shape
	a := k.attrs
	nd := len(x) - 2
	if !a.Fits(nd) {
		return shapeErr(k.n, "window attributes do not fit %d spatial dims", nd)
	}
	g := &k.g
	g.reset(nd)
	off := maxSpatial - nd
	for i := range nd {
		d, err := a.Dim(i, nd, x[i+2], w[i+2])
		if err != nil {
			return shapeErr(k.n, "spatial dim %d: %v", i, err)
		}
		j := off + i
		g.in[j], g.out[j], g.k[j], g.s[j], g.d[j], g.pb[j], g.pe[j] = d.Out, x[i+2], w[i+2], a.Window.Stride(i), a.Window.Dilation(i), d.PadBegin, d.PadEnd
	}
	k.batch, k.inC, k.outC = x[0], x[1], w[1]*k.group
	return nil
}

func (k *convTransposeKernel) run(in, out []*tensor) error {
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
		if k.tiles() {
			k.runTiled(in[0].f32(), in[1].f32(), bv, out[0].f32())
			return nil
		}
		convTransposeRun(k, in[0].f32(), in[1].f32(), bv, out[0].f32(), &k.col32)
	case payload.Float64:
		var bv []float64
		if b != nil {
			bv = b.f64()
		}
		convTransposeRun(k, in[0].f64(), in[1].f64(), bv, out[0].f64(), &k.col64)
	}
	return nil
}

func convTransposeRun[E float32 | float64](k *convTransposeKernel, x, w, bias, y []E, col *[]E) {
	g := &k.g
	ySz, xSz, kSz := size3(g.in), size3(g.out), size3(g.k)
	cg, mg := k.inC/k.group, k.outC/k.group
	rows := mg * kSz
	direct := g.pointwise() && ySz == xSz
	if !direct && len(*col) < rows*xSz {
		*col = make([]E, rows*xSz)
	}
	for n := range k.batch {
		for grp := range k.group {
			xg := x[(n*k.inC+grp*cg)*xSz : (n*k.inC+(grp+1)*cg)*xSz]
			yg := y[(n*k.outC+grp*mg)*ySz : (n*k.outC+(grp+1)*mg)*ySz]
			wg := w[grp*cg*rows : (grp+1)*cg*rows]
			if bias != nil {
				for o := range mg {
					v := bias[grp*mg+o]
					row := yg[o*ySz : (o+1)*ySz]
					for i := range row {
						row[i] = v
					}
				}
			} else {
				clear(yg)
			}
			if direct {
				gemmF(k.gc, nil, true, false, rows, xSz, cg, wg, rows, xg, xSz, 1, yg, xSz)
				continue
			}
			c := (*col)[:rows*xSz]
			gemmF(k.gc, nil, true, false, rows, xSz, cg, wg, rows, xg, xSz, 0, c, xSz)
			col2im(g, c, mg, yg)
		}
	}
}
