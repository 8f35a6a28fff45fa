package cpu

import "unsafe"

// maxPoolRows is the most input rows (kernel depth × height) maxPoolRun
// takes; larger windows use poolRun.
const maxPoolRows = 16

// maxPoolRun is MaxPool without indices or dilation, for windows of at
// most maxPoolRows rows. For each output row it gathers the window's input
// rows that lie inside the input, then takes each output's maximum over
// them in a register; columns in the padding are skipped by clamping.
// Each output starts at lowest, as in poolRun, and a tap replaces the
// running maximum only when greater, so NaNs are skipped as there and the
// result does not depend on the order of taps.
//
// It pools the first planes planes of x into y.
func maxPoolRun[E poolElem](k *poolKernel, planes int, x, y []E, lowest E) {
	g := &k.g
	inSz, outSz := size3(g.in), size3(g.out)
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH, OW := g.out[0], g.out[1], g.out[2]
	if g.k == [maxSpatial]int{1, 2, 2} && g.s == [maxSpatial]int{1, 2, 2} && g.pb == [maxSpatial]int{} &&
		OD == 1 && ID == 1 && 2*OH <= IH && 2*OW <= IW {
		// The common 2×2 stride-2 window inside the input: two rows per
		// output row.
		if maxPool2x2Rows(planes, x, y, inSz, outSz, OH, OW, IH, IW, lowest) {
			return
		}
		for p := range planes {
			xp := x[p*inSz : (p+1)*inSz]
			yp := y[p*outSz : (p+1)*outSz]
			for oh := range OH {
				maxPool2x2(yp[oh*OW:(oh+1)*OW], xp[2*oh*IW:(2*oh+1)*IW], xp[(2*oh+1)*IW:(2*oh+2)*IW], 2, lowest)
			}
		}
		return
	}
	var rows [maxPoolRows][]E
	for p := range planes {
		xp := x[p*inSz : (p+1)*inSz]
		yp := y[p*outSz : (p+1)*outSz]
		for od := range OD {
			d0 := od*g.s[0] - g.pb[0]
			for oh := range OH {
				h0 := oh*g.s[1] - g.pb[1]
				nr := 0
				for id := max(d0, 0); id < min(d0+g.k[0], ID); id++ {
					for ih := max(h0, 0); ih < min(h0+g.k[1], IH); ih++ {
						rows[nr] = xp[(id*IH+ih)*IW : (id*IH+ih+1)*IW]
						nr++
					}
				}
				maxPoolRow(yp[(od*OH+oh)*OW:(od*OH+oh+1)*OW], rows[:nr], g.s[2], g.k[2], g.pb[2], lowest)
			}
		}
	}
}

// maxPool2x2Rows runs the 2×2 stride-2 pooling of planes planes in
// whole-row assembly calls: one call for all planes when each plane's
// rows pair up exactly (IH == 2*OH), else one per plane. It reports false,
// computing nothing, where that kernel does not apply (float64, no AVX,
// OW not a multiple of 8).
func maxPool2x2Rows[E poolElem](planes int, x, y []E, inSz, outSz, OH, OW, IH, IW int, lowest E) bool {
	if unsafe.Sizeof(lowest) == 1 { // int8 or uint8
		return maxPool2x2BRows(planes, poolBytes(x), poolBytes(y), inSz, outSz, OH, OW, IH, IW, lowest != 0)
	}
	if unsafe.Sizeof(lowest) != 4 { // float32 is the only 4-byte poolElem
		return false
	}
	xf, yf, lo := poolF32s(x), poolF32s(y), float32(lowest)
	if IH == 2*OH {
		return maxPool2x2S2Rows(yf, xf, OW, planes*OH, IW, lo)
	}
	for p := range planes {
		if !maxPool2x2S2Rows(yf[p*outSz:(p+1)*outSz], xf[p*inSz:(p+1)*inSz], OW, OH, IW, lo) {
			return false
		}
	}
	return true
}

// maxPoolRow sets dst[ow] to the maximum, from lowest, of the taps
// ow*s-pb+kw (kw < k, inside the row) of every row. Outputs whose window
// lies inside the row take a branch-light path for the common 2×2 and 3×3
// windows.
func maxPoolRow[E poolElem](dst []E, rows [][]E, s, k, pb int, lowest E) {
	w := 0
	if len(rows) > 0 {
		w = len(rows[0])
	}
	// Outputs [lo, hi) have their whole window inside the row.
	lo := min(ceilDiv(pb, s), len(dst))
	hi := lo
	if w-k+pb >= 0 {
		hi = max(lo, min(len(dst), (w-k+pb)/s+1))
	}
	switch {
	case k == 2 && len(rows) == 2:
		maxPool2x2(dst[lo:hi], rows[0][lo*s-pb:], rows[1][lo*s-pb:], s, lowest)
	case k == 3 && len(rows) == 3:
		maxPool3x3(dst[lo:hi], rows[0][lo*s-pb:], rows[1][lo*s-pb:], rows[2][lo*s-pb:], s, lowest)
	default:
		maxPoolClamped(dst, rows, s, k, pb, lowest, 0, len(dst))
		return
	}
	maxPoolClamped(dst, rows, s, k, pb, lowest, 0, lo)
	maxPoolClamped(dst, rows, s, k, pb, lowest, hi, len(dst))
}

// maxPoolClamped is maxPoolRow for the outputs [o0, o1), any window.
func maxPoolClamped[E poolElem](dst []E, rows [][]E, s, k, pb int, lowest E, o0, o1 int) {
	for ow := o0; ow < o1; ow++ {
		c0 := ow*s - pb
		m := lowest
		for _, r := range rows {
			for _, v := range r[max(c0, 0):min(c0+k, len(r))] {
				if v > m {
					m = v
				}
			}
		}
		dst[ow] = m
	}
}

// maxPool2x2 sets dst[i] to the maximum of r0 and r1 at i*s and i*s+1.
func maxPool2x2[E poolElem](dst, r0, r1 []E, s int, lowest E) {
	if len(dst) == 0 {
		return
	}
	if s == 2 && unsafe.Sizeof(lowest) == 4 {
		done := maxPool2x2S2(poolF32s(dst), poolF32s(r0), poolF32s(r1), float32(lowest))
		dst, r0, r1 = dst[done:], r0[2*done:], r1[2*done:]
		if len(dst) == 0 {
			return
		}
	}
	n := (len(dst)-1)*s + 2
	r0, r1 = r0[:n], r1[:n]
	for i := range dst {
		j := i * s
		m := lowest
		if v := r0[j]; v > m {
			m = v
		}
		if v := r0[j+1]; v > m {
			m = v
		}
		if v := r1[j]; v > m {
			m = v
		}
		if v := r1[j+1]; v > m {
			m = v
		}
		dst[i] = m
	}
}

// maxPool3x3 sets dst[i] to the maximum of r0, r1 and r2 at i*s to
// i*s+2.
func maxPool3x3[E poolElem](dst, r0, r1, r2 []E, s int, lowest E) {
	if len(dst) == 0 {
		return
	}
	n := (len(dst)-1)*s + 3
	r0, r1, r2 = r0[:n], r1[:n], r2[:n]
	for i := range dst {
		j := i * s
		m := lowest
		for _, r := range [3][]E{r0, r1, r2} {
			if v := r[j]; v > m {
				m = v
			}
			if v := r[j+1]; v > m {
				m = v
			}
			if v := r[j+2]; v > m {
				m = v
			}
		}
		dst[i] = m
	}
}

// poolF32s reinterprets a float32 slice of a generic pooling loop; E must
// be float32.
func poolF32s[E poolElem](s []E) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
