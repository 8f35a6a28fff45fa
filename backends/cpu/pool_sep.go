package cpu

import (
	"math"
	"slices"

	"github.com/lintel-ml/lintel/payload"
)

// poolSepFloats is about how many float32s a block of planes' padded
// rows takes in the separable pooling: the block's rows, twice over
// with the stride's phases, stay in the L2 cache.
const poolSepFloats = 1 << 14

// poolSepMaxScratch bounds the padded rows of one plane, in float32s.
const poolSepMaxScratch = 1 << 24

// poolSep plans the separable float32 pooling: MaxPool without Indices
// and AveragePool, any window. A block of planes is pooled in two passes
// over whole rows. The first folds, for every output row, the input rows
// its window covers (all depth and height taps inside the input) into a
// padded row of width vw: the input row's columns at pb, the rest the
// fold's start (lowest for MaxPool, zero for AveragePool). The second
// splits the padded rows into the width stride's phases (the row's
// columns ph, ph+s, ...), where each width tap becomes a whole-row
// shift, and folds the taps over the output rows; AveragePool then
// multiplies each sum by the reciprocal of its window's count.
//
// MaxPool keeps every bit of poolRun's: each output is the greatest of
// its taps, NaNs skipped (only which of a +0 and a -0 wins may differ).
// AveragePool sums in float32 and multiplies by the count's float32
// reciprocal, where poolRun sums in float64 and divides: the two agree
// within float32 rounding.
type poolSep struct {
	on    bool
	vw    int // padded row width, a multiple of the width stride
	rows  int // output rows per plane
	block int // planes per block
	start float32
	tab   []float32 // AveragePool's reciprocal counts for a block's outputs, and 8 zeros
	parts []poolSepScratch
	// The plan's geometry and plane count: shape runs on every call,
	// and replans only when they change.
	g      geom
	planes int
	valid  bool
}

// poolSepScratch is one part's scratch.
type poolSepScratch struct {
	v, d        []float32 // padded rows, and their phases
	offs, hoffs []int     // the passes' taps
}

// planSep plans k's separable pooling for the current shapes, or turns
// it off where it does not apply.
func (k *poolKernel) planSep() {
	sp := &k.sep
	g := &k.g
	if sp.valid && sp.g == *g && sp.planes == k.planes {
		return
	}
	sp.on, sp.valid, sp.g, sp.planes = false, true, *g, k.planes
	switch {
	case k.dt != payload.Float32:
		return
	case k.kind == poolMax && !k.indices:
		if maxPool2x2Fast(g) {
			return
		}
		sp.start = -math.MaxFloat32
	case k.kind == poolAvg:
		sp.start = 0
	default:
		return
	}
	s, d, kw := g.s[2], g.d[2], g.k[2]
	// Hostile windows (huge strides, dilations, pads or kernels) keep
	// poolRun, which needs no scratch.
	const big = 1 << 20
	if s > 64 || d > 64 || kw > big || g.pb[2] > big || g.in[2] > big || g.out[2] > big || g.out[0] > big || g.out[1] > big {
		return
	}
	vw := max(g.pb[2]+g.in[2], (g.out[2]-1)*s+(kw-1)*d+1)
	vw = ceilDiv(vw, s) * s
	rows := g.out[0] * g.out[1]
	if rows > poolSepMaxScratch/vw || rows*vw > 2*(size3(g.in)+size3(g.out))+1024 {
		return
	}
	sp.on = true
	sp.vw, sp.rows = vw, rows
	per := rows * vw
	sp.block = max(1, min(k.planes, poolSepFloats/max(per, 1)))
	n := sp.block*per + 16
	parts := k.pool.size()
	if len(sp.parts) < parts {
		sp.parts = append(sp.parts, make([]poolSepScratch, parts-len(sp.parts))...)
	}
	for i := range sp.parts {
		sc := &sp.parts[i]
		sc.v = growF32(&sc.v, n)
		for j := range sc.v {
			sc.v[j] = sp.start
		}
		if s > 1 {
			sc.d = growF32(&sc.d, n)
		}
		sc.offs = slices.Grow(sc.offs[:0], g.k[0]*g.k[1])[:0]
		sc.hoffs = slices.Grow(sc.hoffs[:0], kw)[:0]
	}
	if k.kind != poolAvg {
		return
	}
	outSz := size3(g.out)
	sp.tab = growF32(&sp.tab, sp.block*outSz+8)
	clear(sp.tab[sp.block*outSz:])
	i := 0
	for od := range g.out[0] {
		cd := k.sepCount(0, od)
		for oh := range g.out[1] {
			ch := k.sepCount(1, oh)
			for ow := range g.out[2] {
				var f float32 // no taps: the sum, zero, times zero
				if c := cd * ch * k.sepCount(2, ow); c > 0 {
					f = 1 / float32(c)
				}
				sp.tab[i] = f
				i++
			}
		}
	}
	for b := 1; b < sp.block; b++ {
		copy(sp.tab[b*outSz:(b+1)*outSz], sp.tab[:outSz])
	}
}

// sepCount returns how many taps of output o's window along spatial dim
// i AveragePool counts: those inside the input, or with
// count_include_pad those before the end padding's end too.
func (k *poolKernel) sepCount(i, o int) int {
	g := &k.g
	start := o*g.s[i] - g.pb[i]
	if k.includePad {
		return padCount(start, g.k[i], g.d[i], g.in[i]+g.pe[i])
	}
	lo, hi := tapRange(start, g.d[i], g.in[i], g.k[i])
	return hi - lo
}

// maxPool2x2Fast reports whether maxPoolRun takes g's window with its
// whole-row 2×2 stride-2 assembly, which reads each input once.
func maxPool2x2Fast(g *geom) bool {
	return g.k == [maxSpatial]int{1, 2, 2} && g.s == [maxSpatial]int{1, 2, 2} && g.d == [maxSpatial]int{1, 1, 1} &&
		g.pb == [maxSpatial]int{} && g.out[0] == 1 && g.in[0] == 1 && 2*g.out[1] <= g.in[1] && 2*g.out[2] <= g.in[2] &&
		maxPool2x2S2RowsFits(g.out[2])
}

// sepRows folds taps with the kernel's operation (poolRowsMax or
// poolRowsSum).
func (k *poolKernel) sepRows(dst, src []float32, offs []int, width, rows, ds, ss, planes, dps, sps int, spill bool) {
	if k.kind == poolMax {
		poolRowsMax(dst, src, offs, width, rows, ds, ss, planes, dps, sps, k.sep.start, spill)
		return
	}
	poolRowsSum(dst, src, offs, width, rows, ds, ss, planes, dps, sps, spill)
}

// runSep pools planes [lo, hi) of x into y with part's scratch.
func (k *poolKernel) runSep(part int, x, y []float32, lo, hi int) {
	g, sp := &k.g, &k.sep
	sc := &sp.parts[part]
	inSz, outSz := size3(g.in), size3(g.out)
	s, d, OW := g.s[2], g.d[2], g.out[2]
	for p0 := lo; p0 < hi; p0 += sp.block {
		nb := min(sp.block, hi-p0)
		k.sepVertical(sc, x[p0*inSz:(p0+nb)*inSz], nb)
		src, ss := sc.v, sp.vw
		sc.hoffs = sc.hoffs[:0]
		if s > 1 {
			h := nb * sp.rows * sp.vw / s
			poolDeint(sc.d, sc.v, s, h)
			src, ss = sc.d, sp.vw/s
			for t := range g.k[2] {
				m := t * d
				sc.hoffs = append(sc.hoffs, m%s*h+m/s)
			}
		} else {
			for t := range g.k[2] {
				sc.hoffs = append(sc.hoffs, t*d)
			}
		}
		yb := y[p0*outSz : (p0+nb)*outSz]
		// Rows under eight wide go eight wide over the block as one plane
		// (spilling into the next row); wider ones plane by plane.
		planes, rows := nb, sp.rows
		if OW < 8 {
			planes, rows = 1, nb*sp.rows
		}
		if k.kind == poolAvg {
			poolRowsAvg(yb, src, sc.hoffs, OW, rows, OW, ss, planes, outSz, sp.rows*ss, sp.tab, true)
		} else {
			poolRowsMax(yb, src, sc.hoffs, OW, rows, OW, ss, planes, outSz, sp.rows*ss, sp.start, true)
		}
	}
}

// sepVertical folds, for nb planes of x, every output row's window rows
// into the padded rows of sc.v.
func (k *poolKernel) sepVertical(sc *poolSepScratch, x []float32, nb int) {
	g, sp := &k.g, &k.sep
	ID, IH, IW := g.in[0], g.in[1], g.in[2]
	OD, OH := g.out[0], g.out[1]
	inSz, per := size3(g.in), sp.rows*sp.vw
	// Output rows [lo, hi) have every height tap inside the input.
	lo := min(ceilDiv(g.pb[1], g.s[1]), OH)
	hi := lo
	if last := IH - 1 - (g.k[1]-1)*g.d[1] + g.pb[1]; last >= 0 {
		hi = max(lo, min(OH, last/g.s[1]+1))
	}
	for od := range OD {
		d0 := od*g.s[0] - g.pb[0]
		for oh := 0; oh < OH; oh++ {
			h0 := oh*g.s[1] - g.pb[1]
			n := 1
			if oh == lo && hi > lo {
				n = hi - lo
			}
			sc.offs = sc.offs[:0]
			for kd := range g.k[0] {
				id := d0 + kd*g.d[0]
				if id < 0 || id >= ID {
					continue
				}
				for kh := range g.k[1] {
					ih := h0 + kh*g.d[1]
					if ih < 0 || ih >= IH {
						continue
					}
					sc.offs = append(sc.offs, (id*IH+ih)*IW)
				}
			}
			at := (od*OH+oh)*sp.vw + g.pb[2]
			if len(sc.offs) == 0 {
				for p := range nb {
					for r := range n {
						row := sc.v[p*per+at+r*sp.vw:][:IW]
						for i := range row {
							row[i] = sp.start
						}
					}
				}
			} else {
				k.sepRows(sc.v[at:], x, sc.offs, IW, n, sp.vw, g.s[1]*IW, nb, per, inSz, false)
			}
			oh += n - 1
		}
	}
}
