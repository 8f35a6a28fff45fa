package cpu

import (
	"github.com/lintel-ml/lintel/model"
)

// Long windows with large strides (the framing convolutions of audio
// front ends: a 512-tap filter bank every 160 samples, or 256 taps every
// 128) run as one product per image: the window of output t is the run
// x[t*s : t*s+K] of the (padded) signal, so the unrolled windows are the
// signal itself read as a T×K matrix with row stride s, rows
// overlapping. The filters, transposed and packed once at load, are the
// product's B: C = windows × filtersᵀ is T×M, its columns spread over
// whole panels whatever T is, then transposed into the M×T output.

// longMinK is the shortest window the long path takes.
const longMinK = 64

// longWeights reports whether Conv weights of shape ws with window
// attributes win and group take the long path: one input channel, one
// group, a window of at least longMinK taps along the last dim only (1
// elsewhere), a stride of at least a quarter of it and no dilation.
func longWeights(ws []int, win *model.Window, group int) bool {
	nd := len(ws) - 2
	if nd < 1 || group != 1 || ws[1] != 1 || ws[0] < 1 {
		return false
	}
	for _, d := range ws[2 : len(ws)-1] {
		if d != 1 {
			return false
		}
	}
	k := ws[len(ws)-1]
	return k >= longMinK && win.Stride(nd-1)*4 >= k && win.Dilation(nd-1) == 1
}

// longFits reports whether geometry g, of weights that longWeights
// accepted, is a 1-D signal (every other spatial dim 1, unpadded).
func longFits(g *geom) bool {
	return g.in[0] == 1 && g.in[1] == 1 && g.out[0] == 1 && g.out[1] == 1 &&
		g.pb[0] == 0 && g.pb[1] == 0 && g.pe[0] == 0 && g.pe[1] == 0 && g.d[2] == 1
}

// prepackLong packs constant weights w of the long path as the product's
// B (their transpose, K×M), shared by the artifact's instances.
func (k *convKernel) prepackLong(c *buildCtx, w *model.Tensor) error {
	if w == nil || !longWeights(w.Shape, k.win, k.group) {
		return nil
	}
	hk, err := weightHalf(c.opts.WeightType)
	if err != nil {
		return err
	}
	m, kk := w.Shape[0], w.Shape[len(w.Shape)-1]
	k.longB, err = shareValue(c, "longB", func() (gemmB, error) {
		v, err := model.View[float32](w)
		if err != nil {
			return gemmB{}, err
		}
		if err := checkHalfRange(c, w.Name, v, hk); err != nil {
			return gemmB{}, err
		}
		if hk == halfNone {
			return gemmB{packed: prepackB(v, kk, true, kk, m)}, nil
		}
		return gemmB{half: prepackBHalf(v, kk, true, kk, m, hk), hk: hk}, nil
	})
	if err != nil {
		return err
	}
	k.longShape = w.Shape
	return nil
}

// convLong convolves the batch signals of x with the filters packed in
// k.longB into y, adding bias (nil: none) and applying the fused
// activation.
func (k *convKernel) convLong(x, bias, y []float32) {
	g := &k.g
	IW, T, K, s, pb := g.in[2], g.out[2], g.k[2], g.s[2], g.pb[2]
	m := k.outC
	if T == 0 || m == 0 {
		return
	}
	// The windows read [0, (T-1)*s+K) of the padded signal.
	span := (T-1)*s + K
	padded := pb != 0 || span > IW
	if padded && len(k.longPad) < span {
		k.longPad = make([]float32, span)
	}
	if len(k.longC) < T*m {
		k.longC = make([]float32, T*m)
	}
	ct := k.longC[:T*m]
	var ep *gemmEpilogue
	if bias != nil || k.ep != nil {
		k.gep.bias = bias
		if k.ep != nil {
			k.gep.act = k.ep.act
		}
		ep = &k.gep
	}
	for n := range k.batch {
		src := x[n*IW : (n+1)*IW]
		if padded {
			p := k.longPad[:span]
			clear(p)
			lo, hi := min(pb, span), min(pb+IW, span)
			copy(p[lo:hi], src)
			src = p
		}
		k.gc.runFused(T, m, K, 1, gemmA{data: src, ld: s}, k.longB, 0, ct, m, ep)
		transposeInto(y[n*m*T:(n+1)*m*T], ct, T, m)
	}
	k.gep.bias = nil
}
