package cpu

import (
	"math"
	"unsafe"

	"github.com/lintel-ml/lintel/model"
)

// maxSpatial is the largest spatial rank the convolution and pooling
// kernels handle. Lower ranks are lifted to it by prepending unit dims.
const maxSpatial = 3

// Auto-padding modes.
const (
	padNotSet = iota
	padSameUpper
	padSameLower
	padValid
)

// spatialAttrs holds the window attributes shared by Conv, ConvTranspose
// and the pooling ops, as the node gave them (nil when absent).
type spatialAttrs struct {
	kernel, strides, dilations, pads []int64
	autoPad                          int
	ceil                             bool
}

// readSpatial reads kernel_shape, strides, dilations, pads, auto_pad and
// (for pooling) ceil_mode, checking their values.
func readSpatial(c *buildCtx, pool bool) (spatialAttrs, error) {
	var a spatialAttrs
	var err error
	if a.kernel, err = c.n.Ints("kernel_shape", nil); err != nil {
		return a, err
	}
	if a.strides, err = c.n.Ints("strides", nil); err != nil {
		return a, err
	}
	if a.dilations, err = c.n.Ints("dilations", nil); err != nil {
		return a, err
	}
	if a.pads, err = c.n.Ints("pads", nil); err != nil {
		return a, err
	}
	ap, err := c.n.String("auto_pad", "NOTSET")
	if err != nil {
		return a, err
	}
	switch ap {
	case "NOTSET", "":
		a.autoPad = padNotSet
	case "SAME_UPPER":
		a.autoPad = padSameUpper
	case "SAME_LOWER":
		a.autoPad = padSameLower
	case "VALID":
		a.autoPad = padValid
	default:
		return a, c.unsupported("auto_pad %q", ap)
	}
	if pool {
		cm, err := c.n.Int("ceil_mode", 0)
		if err != nil {
			return a, err
		}
		a.ceil = cm != 0
	}
	for _, v := range a.kernel {
		if v < 1 {
			return a, c.invalid("kernel_shape %v has a non-positive entry", a.kernel)
		}
	}
	for _, v := range a.strides {
		if v < 1 {
			return a, c.invalid("strides %v has a non-positive entry", a.strides)
		}
	}
	for _, v := range a.dilations {
		if v < 1 {
			return a, c.invalid("dilations %v has a non-positive entry", a.dilations)
		}
	}
	for _, v := range a.pads {
		if v < 0 {
			return a, c.unsupported("negative pads %v", a.pads)
		}
	}
	if a.autoPad != padNotSet && a.pads != nil {
		if nonZero(a.pads) {
			return a, c.invalid("pads %v given with auto_pad %q", a.pads, ap)
		}
	}
	if nd := len(a.kernel); nd > 0 {
		if nd > maxSpatial {
			return a, c.unsupported("%d spatial dims (at most %d)", nd, maxSpatial)
		}
		if err := a.checkRank(c, nd); err != nil {
			return a, err
		}
	}
	return a, nil
}

func nonZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return true
		}
	}
	return false
}

// checkRank refuses attribute lists whose length does not fit nd spatial
// dims.
func (a *spatialAttrs) checkRank(c *buildCtx, nd int) error {
	if nd > maxSpatial {
		return c.unsupported("%d spatial dims (at most %d)", nd, maxSpatial)
	}
	if a.kernel != nil && len(a.kernel) != nd {
		return c.invalid("kernel_shape %v for %d spatial dims", a.kernel, nd)
	}
	if a.strides != nil && len(a.strides) != nd {
		return c.invalid("strides %v for %d spatial dims", a.strides, nd)
	}
	if a.dilations != nil && len(a.dilations) != nd {
		return c.invalid("dilations %v for %d spatial dims", a.dilations, nd)
	}
	if a.pads != nil && len(a.pads) != 2*nd {
		return c.invalid("pads %v for %d spatial dims", a.pads, nd)
	}
	return nil
}

// geom is a window geometry lifted to maxSpatial dims: spatial rank nd
// occupies the last nd slots, the leading slots are unit dims.
type geom struct {
	nd                       int
	in, out, k, s, d, pb, pe [maxSpatial]int
}

// reset lifts nd spatial dims with defaults: unit sizes, strides and
// dilations, no padding.
func (g *geom) reset(nd int) {
	g.nd = nd
	for i := range maxSpatial {
		g.in[i], g.out[i], g.k[i], g.s[i], g.d[i], g.pb[i], g.pe[i] = 1, 1, 1, 1, 1, 0, 0
	}
}

// size returns the product of a lifted dim array.
func size3(v [maxSpatial]int) int { return v[0] * v[1] * v[2] }

// window fills g for input spatial dims x and kernel dims kern (both nd
// long), computing output sizes and effective pads. pool selects the
// pooling rules (ceil_mode); otherwise the convolution rule (floor) holds.
func (a *spatialAttrs) window(n *model.Node, g *geom, x, kern []int, pool bool) error {
	nd := len(x)
	if nd == 0 || nd > maxSpatial {
		return shapeErr(n, "%d spatial dims (want 1 to %d)", nd, maxSpatial)
	}
	if (a.strides != nil && len(a.strides) != nd) || (a.dilations != nil && len(a.dilations) != nd) ||
		(a.pads != nil && len(a.pads) != 2*nd) || (a.kernel != nil && len(a.kernel) != nd) {
		return shapeErr(n, "window attributes do not fit %d spatial dims", nd)
	}
	g.reset(nd)
	off := maxSpatial - nd
	for i := range nd {
		j := off + i
		in, k := x[i], kern[i]
		s, d := 1, 1
		if a.strides != nil {
			s = int(a.strides[i])
		}
		if a.dilations != nil {
			d = int(a.dilations[i])
		}
		if k < 1 || (k > 1 && d > maxGeom/(k-1)) {
			return shapeErr(n, "kernel %v with dilations %v overflows", kern, a.dilations)
		}
		dk := (k-1)*d + 1
		var pb, pe, o int
		switch a.autoPad {
		case padSameUpper, padSameLower:
			o = ceilDiv(in, s)
			total := max(0, (o-1)*s+dk-in)
			if a.autoPad == padSameUpper {
				pb = total / 2
			} else {
				pb = total - total/2
			}
			pe = total - pb
		default:
			if a.autoPad == padNotSet && a.pads != nil {
				pb, pe = int(a.pads[i]), int(a.pads[i+nd])
			}
			if pb > maxGeom || pe > maxGeom || in > maxGeom {
				return shapeErr(n, "pads %v overflow", a.pads)
			}
			num := in + pb + pe - dk
			if num < 0 {
				return shapeErr(n, "kernel %v (dilated) exceeds padded input %v", kern, x)
			}
			if pool && a.ceil {
				o = ceilDiv(num, s) + 1
				if o-1 >= ceilDiv(in+pb, s) { // (o-1)*s >= in+pb, without overflowing
					o--
				}
			} else {
				o = num/s + 1
			}
		}
		g.in[j], g.out[j], g.k[j], g.s[j], g.d[j], g.pb[j], g.pe[j] = in, o, k, s, d, pb, pe
	}
	return nil
}

// tapRange returns the output positions [lo, hi) of the tap at offset off
// (input position = o*s + off) that land inside an input of length in,
// clamped to [0, out).
func tapRange(off, s, in, out int) (lo, hi int) {
	if off < 0 {
		lo = ceilDiv(-off, s)
	}
	if in-off > 0 {
		hi = ceilDiv(in-off, s)
	}
	hi = min(hi, out)
	lo = min(lo, hi)
	return lo, hi
}

// maxGeom bounds the sizes, pads and dilated kernel extents of a window,
// so that sums of a few of them cannot overflow.
const maxGeom = math.MaxInt / 4

// ceilDiv returns a/b rounded up for a >= 0 and b > 0, without the
// overflow of (a+b-1)/b when b is huge.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// intsOf converts an int64 attribute list for building shapes.
func intsOf(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// f32s and f64s reinterpret a float slice of the matching size; the
// generic kernels use them to reach the concrete float32 and float64 paths
// without boxing.
func f32s[E float32 | float64](s []E) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

func f64s[E float32 | float64](s []E) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// gemmF computes C = op(A)*op(B) + beta*C with gc's packed SGEMM for
// float32 (from pa, A prepacked, when not nil) and the plain loop for
// float64.
func gemmF[E float32 | float64](gc *gemmCtx, pa []float32, transA, transB bool, m, n, k int, a []E, lda int, b []E, ldb int, beta E, c []E, ldc int) {
	gemmFused(gc, pa, transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc, nil)
}

// gemmFused is gemmF with a float32 epilogue (nil: none; float64 takes
// none).
func gemmFused[E float32 | float64](gc *gemmCtx, pa []float32, transA, transB bool, m, n, k int, a []E, lda int, b []E, ldb int, beta E, c []E, ldc int, ep *gemmEpilogue) {
	var z E
	if unsafe.Sizeof(z) == 4 {
		ga := gemmA{data: f32s(a), ld: lda, trans: transA}
		if pa != nil {
			ga = gemmA{packed: pa}
		}
		gc.runFused(m, n, k, 1, ga, gemmB{data: f32s(b), ld: ldb, trans: transB}, float32(beta), f32s(c), ldc, ep)
		return
	}
	gemmNaive(transA, transB, m, n, k, 1, f64s(a), lda, f64s(b), ldb, float64(beta), f64s(c), ldc)
}
