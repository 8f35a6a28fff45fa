package cpu

import (
	"unsafe"

	"github.com/lintel-ml/lintel/model"
)

// maxSpatial is the largest spatial rank the convolution and pooling
// kernels handle. Lower ranks are lifted to it by prepending unit dims.
const maxSpatial = 3

// checkWindow refuses, at build, window attributes that do not fit the
// node's input rank when the graph knows it, or ask for more spatial
// dims than the kernels handle.
func checkWindow(c *buildCtx, w *model.Window) error {
	if nd := len(w.KernelShape); nd > maxSpatial {
		return c.unsupported("%d spatial dims (at most %d)", nd, maxSpatial)
	}
	if len(c.in) == 0 || !c.in[0].RankKnown {
		return nil
	}
	r := len(c.in[0].Shape)
	if r < 3 {
		return c.invalid("input rank %d (want N, C and 1 to %d spatial dims)", r, maxSpatial)
	}
	nd := r - 2
	if nd > maxSpatial {
		return c.unsupported("%d spatial dims (at most %d)", nd, maxSpatial)
	}
	if !w.Fits(nd) {
		return c.invalid("kernel_shape %v, strides %v, dilations %v, pads %v for %d spatial dims", w.KernelShape, w.Strides, w.Dilations, w.Pads, nd)
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

// fillWindow fills g with w's geometry for input spatial dims x and
// kernel dims kern (both nd long): the output sizes and the pads that
// model.Window.Dim computes, as the descriptor's rule does.
func fillWindow(n *model.Node, w *model.Window, g *geom, x, kern []int) error {
	nd := len(x)
	if nd == 0 || nd > maxSpatial {
		return shapeErr(n, "%d spatial dims (want 1 to %d)", nd, maxSpatial)
	}
	if !w.Fits(nd) {
		return shapeErr(n, "window attributes do not fit %d spatial dims", nd)
	}
	g.reset(nd)
	off := maxSpatial - nd
	for i := range nd {
		d, err := w.Dim(i, nd, x[i], kern[i])
		if err != nil {
			return shapeErr(n, "spatial dim %d: %v", i, err)
		}
		j := off + i
		g.in[j], g.out[j], g.k[j], g.s[j], g.d[j], g.pb[j], g.pe[j] = x[i], d.Out, kern[i], w.Stride(i), w.Dilation(i), d.PadBegin, d.PadEnd
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
