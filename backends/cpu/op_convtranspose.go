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
	attrs            spatialAttrs
	group            int
	outPad, outShape []int64
	g                geom
	batch, inC, outC int
	col32            []float32
	col64            []float64
	// gc runs the float32 products.
	gc *gemmCtx
}

func init() {
	register("ConvTranspose", buildConvTranspose)
}

func buildConvTranspose(c *buildCtx) (kernel, error) {
	dt, attrs, group, err := readConvCommon(c)
	if err != nil {
		return nil, err
	}
	k := &convTransposeKernel{n: c.n, dt: dt, attrs: attrs, group: group, gc: c.gemmCtx()}
	if k.outPad, err = c.n.Ints("output_padding", nil); err != nil {
		return nil, err
	}
	for _, v := range k.outPad {
		if v < 0 {
			return nil, c.invalid("output_padding %v has a negative entry", k.outPad)
		}
	}
	if k.outShape, err = c.n.Ints("output_shape", nil); err != nil {
		return nil, err
	}
	if len(c.in) > 0 && c.in[0].RankKnown {
		r := len(c.in[0].Shape)
		if r < 3 {
			return nil, c.invalid("input rank %d (want N, C and 1 to 3 spatial dims)", r)
		}
		nd := r - 2
		if err := k.attrs.checkRank(c, nd); err != nil {
			return nil, err
		}
		if k.outPad != nil && len(k.outPad) != nd {
			return nil, c.invalid("output_padding %v for %d spatial dims", k.outPad, nd)
		}
		if k.outShape != nil && len(k.outShape) != nd && len(k.outShape) != nd+2 {
			return nil, c.invalid("output_shape %v for %d spatial dims", k.outShape, nd)
		}
	}
	return k, nil
}

func (k *convTransposeKernel) shape(in, out []*tensor) error {
	if err := convShapes(k.n, in); err != nil {
		return err
	}
	x, w := in[0].shape, in[1].shape
	c := x[1]
	if w[0] != c {
		return shapeErr(k.n, "input %v has %d channels, weights %v want %d", x, c, w, w[0])
	}
	if c%k.group != 0 {
		return shapeErr(k.n, "input %v: %d channels not divisible by group %d", x, c, k.group)
	}
	m := w[1] * k.group
	a := &k.attrs
	nd := len(x) - 2
	if (a.kernel != nil && len(a.kernel) != nd) || (a.strides != nil && len(a.strides) != nd) ||
		(a.dilations != nil && len(a.dilations) != nd) || (a.pads != nil && len(a.pads) != 2*nd) ||
		(k.outPad != nil && len(k.outPad) != nd) ||
		(k.outShape != nil && len(k.outShape) != nd && len(k.outShape) != nd+2) {
		return shapeErr(k.n, "window attributes do not fit %d spatial dims", nd)
	}
	if a.kernel != nil {
		for i, v := range a.kernel {
			if int(v) != w[i+2] {
				return shapeErr(k.n, "kernel_shape %v does not match weights %v", a.kernel, w)
			}
		}
	}
	if len(in) > 2 && in[2] != nil {
		if b := in[2].shape; len(b) != 1 || b[0] != m {
			return shapeErr(k.n, "bias %v, want [%d]", b, m)
		}
	}
	g := &k.g
	g.reset(nd)
	off := maxSpatial - nd
	for i := range nd {
		j := off + i
		in, kk := x[i+2], w[i+2]
		s, d, op := 1, 1, 0
		if a.strides != nil {
			s = int(a.strides[i])
		}
		if a.dilations != nil {
			d = int(a.dilations[i])
		}
		if k.outPad != nil {
			op = int(k.outPad[i])
		}
		dk := (kk-1)*d + 1
		full := s*(in-1) + op + dk
		var o, pb, pe int
		switch {
		case k.outShape != nil || a.autoPad == padSameUpper || a.autoPad == padSameLower:
			if k.outShape != nil {
				o = int(k.outShape[len(k.outShape)-nd+i])
			} else {
				o = in * s
			}
			total := full - o
			if total < 0 && k.outShape == nil {
				total = 0
			}
			// Split as the ONNX spec and ONNX Runtime 1.24 do: an odd
			// total pads more at the tail for SAME_UPPER, more at the
			// head otherwise. An output_shape beyond the full output
			// gives a negative total: the output extends past the last
			// tap with zeros at the tail.
			switch {
			case total < 0:
				pb = 0
			case a.autoPad == padSameUpper:
				pb = total / 2
			default:
				pb = total - total/2
			}
			pe = total - pb
			o = full - total
		default:
			if a.autoPad == padNotSet && a.pads != nil {
				pb, pe = int(a.pads[i]), int(a.pads[i+nd])
			}
			o = full - pb - pe
		}
		if o < 0 {
			return shapeErr(k.n, "pads %v leave a negative output size for input %v", a.pads, x)
		}
		g.in[j], g.out[j], g.k[j], g.s[j], g.d[j], g.pb[j], g.pe[j] = o, in, kk, s, d, pb, pe
	}
	k.batch, k.inC, k.outC = x[0], c, m
	o := out[0].resize(len(x))
	o[0], o[1] = x[0], m
	copy(o[2:], g.in[off:])
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
