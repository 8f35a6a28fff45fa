package cpu

import (
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/lintel-ml/lintel/internal/errs"
	"github.com/lintel-ml/lintel/model"
	"github.com/lintel-ml/lintel/payload"
)

// Half-precision weights (compute.Options.WeightType, ADR 19).
//
// Constant weight matrices may be stored as float16 or bfloat16: packed
// exactly as their float32 form (prepackB, prepackA), then each element
// rounded to nearest even into a uint16. The kernels widen them back to
// float32 as they read them, which is exact, and multiply and sum in
// float32 as for float32 weights: a half kernel gives the bits its
// float32 twin gives on the widened weights.
//
// A step of a bfloat16 B panel (16 columns) is stored pair-interleaved:
// 16-bit word 2i holds column i and word 2i+1 column 8+i, so that one
// 32-byte load, shifted left by 16 bits per 32-bit word, gives columns
// 0-7 as float32, and masked with 0xffff0000 gives columns 8-15: two
// simple vector operations per 16 values instead of two widening
// shuffles and two shifts. float16 panels keep the plain order, which
// F16C's VCVTPH2PS reads 8 at a time. Packed A (Conv filters) keeps the
// plain order in both formats.

// halfKind is the 16-bit format weights are stored in; halfNone keeps
// them float32.
type halfKind uint8

const (
	halfNone halfKind = iota
	halfF16
	halfBF16
)

// String names k as a payload.DType does.
func (k halfKind) String() string {
	return [...]string{"float32", "float16", "bfloat16"}[k]
}

// weightHalf returns the format compute.Options.WeightType dt asks for,
// or ErrUnsupported naming dt.
func weightHalf(dt payload.DType) (halfKind, error) {
	switch dt {
	case payload.Undefined, payload.Float32:
		return halfNone, nil
	case payload.Float16:
		return halfF16, nil
	case payload.BF16:
		return halfBF16, nil
	}
	return halfNone, errs.New(errs.Unsupported, "cpu: weight type %s is not supported (want float32, float16 or bfloat16)", dt)
}

// narrow returns v in k's format, rounded to nearest even.
func (k halfKind) narrow(v float32) uint16 {
	if k == halfF16 {
		return float16.Fromfloat32(v).Bits()
	}
	return uint16(payload.BFloat16From(v))
}

// widen returns h, in k's format, as a float32, exactly.
func (k halfKind) widen(h uint16) float32 {
	if k == halfF16 {
		return float16.Frombits(h).Float32()
	}
	return math.Float32frombits(uint32(h) << 16)
}

// narrowAll returns a new slice holding every value of src in k's format.
func (k halfKind) narrowAll(src []float32) []uint16 {
	dst := make([]uint16, len(src))
	for i, v := range src {
		dst[i] = k.narrow(v)
	}
	return dst
}

// widenVec[k], when set, widens the first n&^7 elements of src (in
// format k) into dst with vector instructions. It is set once at init.
var widenVec [3]func(dst *float32, src *uint16, n int)

// widenAll sets dst[i] to src[i] widened, for i < len(src).
func (k halfKind) widenAll(dst []float32, src []uint16) {
	dst = dst[:len(src)]
	n := 0
	if f := widenVec[k]; f != nil && len(src) >= 8 {
		n = len(src) &^ 7
		f(&dst[0], &src[0], n)
	}
	k.widenGo(dst[n:], src[n:])
}

// widenGo is widenAll in plain Go.
func (k halfKind) widenGo(dst []float32, src []uint16) {
	dst = dst[:len(src)]
	if k == halfBF16 {
		for i, h := range src {
			dst[i] = math.Float32frombits(uint32(h) << 16)
		}
		return
	}
	for i, h := range src {
		dst[i] = float16.Frombits(h).Float32()
	}
}

// halfSet is the kernels for B panels stored in one half format.
type halfSet struct {
	rows [gemmMR]kernelRowOf[uint16]
	// rowBlocks4 is rowBlocks4 for these panels.
	rowBlocks4 func(kc int, a *float32, b *uint16, bstride int, dst *float32)
	name       string
}

// halfKernels[k] serves B panels in format k (halfF16, halfBF16). It is
// set once at init, to the assembly kernels where the CPU has them and to
// goHalfKernels otherwise.
var halfKernels [3]halfSet

// goHalfKernels returns the pure-Go kernels for panels in format k.
func goHalfKernels(k halfKind) halfSet {
	var hs halfSet
	for i := range hs.rows {
		r, q := i+1, kernelPanels[i]
		hs.rows[i] = kernelRowOf[uint16]{
			q: q,
			wide: func(kc int, a *float32, b *uint16, ps int, c *float32, ldc, add int) {
				goHalfKernel(k, r, q, kc, a, b, ps, c, ldc, add)
			},
			one: func(kc int, a *float32, b *uint16, ps int, c *float32, ldc, add int) {
				goHalfKernel(k, r, 1, kc, a, b, ps, c, ldc, add)
			},
		}
	}
	hs.rowBlocks4 = func(kc int, a *float32, b *uint16, bstride int, dst *float32) {
		for t := range 4 {
			goHalfKernel(k, 1, 1, kc, (*float32)(unsafe.Add(unsafe.Pointer(a), 4*t*kc)),
				(*uint16)(unsafe.Add(unsafe.Pointer(b), 2*t*bstride)), kc*gemmNR,
				(*float32)(unsafe.Add(unsafe.Pointer(dst), 4*t*gemmNR)), gemmNR, 0)
		}
	}
	hs.name = "go"
	return hs
}

// goHalfKernel is goKernel reading B panels in format k: each step's 16
// values are widened, then summed as goKernel sums them.
func goHalfKernel(k halfKind, r, q, kc int, a *float32, b *uint16, pstride int, c *float32, ldc, add int) {
	as := unsafe.Slice(a, kc*r)
	for j := range q {
		bs := unsafe.Slice((*uint16)(unsafe.Add(unsafe.Pointer(b), 2*j*pstride)), kc*gemmNR)
		for i := range r {
			var acc [gemmNR]float32
			for p := range kc {
				av := as[p*r+i]
				var bp [gemmNR]float32
				k.widenStep(&bp, bs[p*gemmNR:(p+1)*gemmNR])
				for t := range acc {
					acc[t] += float32(av * bp[t])
				}
			}
			storeTile(c, ldc, i, j, &acc, add)
		}
	}
}

// prepackBHalf is prepackB with the packed panels in format hk,
// bfloat16 steps pair-interleaved.
func prepackBHalf(b []float32, ldb int, trans bool, k, n int, hk halfKind) []uint16 {
	h := hk.narrowAll(prepackB(b, ldb, trans, k, n))
	if hk == halfBF16 {
		for s := 0; s+gemmNR <= len(h); s += gemmNR {
			interleaveStep((*[gemmNR]uint16)(h[s : s+gemmNR]))
		}
	}
	return h
}

// interleaveStep reorders one panel step of 16 values from column order
// to the pair-interleaved order of bfloat16 panels.
func interleaveStep(st *[gemmNR]uint16) {
	c := *st
	for i := range gemmNR / 2 {
		st[2*i], st[2*i+1] = c[i], c[gemmNR/2+i]
	}
}

// widenStep widens one panel step of 16 values in format k, stored as
// prepackBHalf stores it, into dst in column order.
func (k halfKind) widenStep(dst *[gemmNR]float32, src []uint16) {
	src = src[:gemmNR]
	if k == halfBF16 {
		for i := range gemmNR / 2 {
			dst[i] = math.Float32frombits(uint32(src[2*i]) << 16)
			dst[gemmNR/2+i] = math.Float32frombits(uint32(src[2*i+1]) << 16)
		}
		return
	}
	k.widenGo(dst[:], src)
}

// prepackAHalf is prepackA with the packed micro-panels in format hk.
func prepackAHalf(a []float32, lda int, trans bool, alpha float32, m, k int, hk halfKind) []uint16 {
	return hk.narrowAll(prepackA(a, lda, trans, alpha, m, k))
}

// prepacked reports whether b is packed already (packed or half).
func (b gemmB) prepacked() bool { return b.packed != nil || b.half != nil }

// sharePackedB returns op(w), k×n, packed in the weight format c's
// options ask for, built once and shared by the artifact's instances.
func sharePackedB(c *buildCtx, w *model.Tensor, trans bool, k, n int) (gemmB, error) {
	hk, err := weightHalf(c.opts.WeightType)
	if err != nil {
		return gemmB{}, err
	}
	size := 4
	if hk != halfNone {
		size = 2
	}
	c.gemmCtx().packedB += packedBSize(k, n) * size
	return shareValue(c, "packedB", func() (gemmB, error) {
		v, err := model.View[float32](w)
		if err != nil {
			return gemmB{}, err
		}
		if err := checkHalfRange(c, w.Name, v, hk); err != nil {
			return gemmB{}, err
		}
		if hk == halfNone {
			return gemmB{packed: prepackB(v, w.Shape[1], trans, k, n)}, nil
		}
		return gemmB{half: prepackBHalf(v, w.Shape[1], trans, k, n, hk), hk: hk}, nil
	})
}

// checkHalfRange refuses, with ErrUnsupported, float16 weights v (the
// initializer name) holding a finite value that float16 cannot hold: it
// would become infinite. bfloat16 has float32's range.
func checkHalfRange(c *buildCtx, name string, v []float32, hk halfKind) error {
	if hk != halfF16 {
		return nil
	}
	for _, x := range v {
		if a := math.Abs(float64(x)); a >= 65520 && !math.IsInf(a, 0) {
			return c.unsupported("weight %q holds %g, beyond float16's range (±65504): use bfloat16 or float32 weights", name, x)
		}
	}
	return nil
}
