package cpu

import (
	"github.com/lintel-ml/lintel/model"
)

// Small output planes with many channels (the last stages of image
// networks: 7×7 outputs of 256 to 512 channels) waste most of the other
// paths' vectors, which run along an output row or across the plane's
// few positions: a 7-wide row fills 7 of a tile's 16 lanes, and 49
// positions fill 3 of 4 panels. Such a convolution runs as one product
// per image and group with the roles swapped: C = windows × filtersᵀ is
// outSz×M, the output channels spread over whole panels, then
// transposed into the M×outSz output (as the long path does,
// op_conv_long.go). Each row of the windows matrix is one output
// position's window in (tap, channel) order, built from the image
// transposed to positions × channels, so that every tap is one copy of
// the channels' run; the filters are packed once at load in that order.
// The sums run in a different order than the other paths', so the
// results may differ from theirs in the last bits.

// 1×1 windows keep their paths, with no window to unroll, unless the
// stride is one, the positions leave a panel partly empty and the
// channels are many (smallMinPointK): then the whole panels of output
// channels save more than the transposes cost (about a tenth of the
// time at 512 channels over 7×7, a fifth at 1024). Fewer channels, or
// positions that fill whole panels, run faster on their paths.
//
// Limits of the small-plane path: the widest output row it takes, the
// fewest output channels per group, and the most floats of the windows
// matrix (its scratch).
const (
	smallMaxOW    = directNR / 2
	smallMinM     = 64
	smallMaxPatch = 1 << 21
	// smallMinPointK is the fewest input channels of a 1×1 window.
	smallMinPointK = 512
)

// smallTakes reports whether the small-plane path runs geometry g with
// cg input and mg output channels per group in a group of group: where
// the direct kernels would not (with their filters packed, direct) nor
// the short 1-D path.
func smallTakes(g *geom, cg, mg, group int, direct bool) bool {
	if g.k[0] != 1 || g.in[0] != 1 || g.out[0] != 1 || mg < smallMinM || cg < 8 {
		return false
	}
	if g.k[1]*g.k[2] == 1 && (!g.pointwise() || cg < smallMinPointK || (g.out[1]*g.out[2])%gemmNR == 0) {
		return false
	}
	if direct && directTakes(g, cg*g.k[1]*g.k[2]) || conv1dShortFits(g, group, mg*group) {
		return false
	}
	outSz := g.out[1] * g.out[2]
	kdim := cg * g.k[1] * g.k[2]
	return g.out[2] <= smallMaxOW && outSz > 0 && outSz*kdim <= smallMaxPatch
}

// smallWeights packs constant Conv weights v (M × cg·taps, in (channel,
// tap) order) for the small-plane path, one B per group: the filters
// reordered to (tap, channel) and transposed, K×mg.
func smallWeights(v []float32, group, mg, cg, taps int) []gemmB {
	kdim := cg * taps
	out := make([]gemmB, group)
	r := make([]float32, mg*kdim)
	for g := range group {
		wg := v[g*mg*kdim : (g+1)*mg*kdim]
		for o := range mg {
			for c := range cg {
				for t := range taps {
					r[o*kdim+t*cg+c] = wg[o*kdim+c*taps+t]
				}
			}
		}
		out[g] = gemmB{packed: prepackB(r, kdim, true, kdim, mg)}
	}
	return out
}

// prepackSmall packs constant float32 weights w for the small-plane path
// when the node's input shape is known at load and the path takes it.
// It reports whether it did, so that the other layouts can be skipped.
func (k *convKernel) prepackSmall(c *buildCtx, w *model.Tensor) (bool, error) {
	if w == nil || len(w.Shape) < 3 || len(w.Shape) > 4 || w.Shape[0]%k.group != 0 {
		return false, nil
	}
	if hk, err := weightHalf(c.opts.WeightType); err != nil || hk != halfNone {
		return false, err
	}
	g, ok := k.staticGeom(c, w.Shape)
	mg, cg := w.Shape[0]/k.group, w.Shape[1]
	direct := directWeights(w.Shape, cg*windowTaps(w.Shape[2:]))
	if !ok || !smallTakes(&g, cg, mg, k.group, direct) {
		return false, nil
	}
	v, err := model.View[float32](w)
	if err != nil {
		return false, err
	}
	taps := windowTaps(w.Shape[2:])
	k.smallB, err = shareValue(c, "smallB", func() ([]gemmB, error) {
		return smallWeights(v, k.group, mg, cg, taps), nil
	})
	if err != nil {
		return false, err
	}
	k.smallShape = w.Shape
	return true, nil
}

// smallFor returns the small-plane path's weights when they match shape
// and the path takes the current geometry, else nil.
func (k *convKernel) smallFor(shape []int) []gemmB {
	if k.smallB == nil || !sameShape(shape, k.smallShape) || !smallTakes(&k.g, k.inC/k.group, k.outC/k.group, k.group, k.dw32 != nil) {
		return nil
	}
	return k.smallB
}

// convSmall convolves the batch images of x with the filters packed in
// b (one per group) into y, adding bias (nil: none) and applying the
// fused activation.
func (k *convKernel) convSmall(x, bias, y []float32, b []gemmB) {
	g := &k.g
	inSz, outSz := size3(g.in), size3(g.out)
	cg, mg := k.inC/k.group, k.outC/k.group
	kdim := cg * size3(g.k)
	xt := growF32(&k.smallXT, inSz*cg)
	ct := growF32(&k.smallC, outSz*mg)
	a := growF32(&k.smallA, outSz*kdim)
	if k.ep != nil {
		k.gep.act = k.ep.act
	}
	for n := range k.batch {
		for grp := range k.group {
			xg := x[(n*k.inC+grp*cg)*inSz : (n*k.inC+(grp+1)*cg)*inSz]
			yg := y[(n*k.outC+grp*mg)*outSz : (n*k.outC+(grp+1)*mg)*outSz]
			transposeInto(xt, xg, cg, inSz)
			smallWindows(g, xt, cg, a)
			var ep *gemmEpilogue
			if bias != nil || k.ep != nil {
				k.gep.bias = nil
				if bias != nil {
					k.gep.bias = bias[grp*mg : (grp+1)*mg]
				}
				ep = &k.gep
			}
			k.gc.runFused(outSz, mg, kdim, 1, gemmA{data: a, ld: kdim}, b[grp], 0, ct, mg, ep)
			transposeInto(yg, ct, outSz, mg)
		}
	}
	k.gep.bias = nil
}

// smallWindows fills a (outSz × taps·cg) with each output position's
// window of the image xt (positions × cg channels), in (tap, channel)
// order, zeros where a tap falls in the padding.
func smallWindows(g *geom, xt []float32, cg int, a []float32) {
	IH, IW := g.in[1], g.in[2]
	OH, OW := g.out[1], g.out[2]
	KH, KW := g.k[1], g.k[2]
	kdim := cg * KH * KW
	for oh := range OH {
		for ow := range OW {
			row := a[(oh*OW+ow)*kdim : (oh*OW+ow+1)*kdim]
			for kh := range KH {
				ih := oh*g.s[1] - g.pb[1] + kh*g.d[1]
				for kw := range KW {
					iw := ow*g.s[2] - g.pb[2] + kw*g.d[2]
					dst := row[(kh*KW+kw)*cg : (kh*KW+kw+1)*cg]
					if ih < 0 || ih >= IH || iw < 0 || iw >= IW {
						clear(dst)
						continue
					}
					copy(dst, xt[(ih*IW+iw)*cg:])
				}
			}
		}
	}
}
