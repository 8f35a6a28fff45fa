package cpu

import "fmt"

// Grouped 1×1 Convs of few channels a group.
//
// A 1×1 Conv with groups of cg inputs and mg outputs is, per group, an
// mg×cg by cg×positions product, too thin for the packed SGEMM, whose
// tiles would be mostly empty and whose per-group packing and calls
// cost more than the arithmetic. pwGroup instead streams the positions
// a vector at a time: it loads the group's cg input vectors once and
// computes all mg outputs from them with broadcast weights, cg·mg FMAs
// per cg loads and mg stores, so that the path runs at the speed of
// memory. Strided 1×1 windows first subsample the image as the
// subsampled path does (op_conv_subsample.go).
//
// Each output is summed from its bias in increasing input channel, one
// rounding per FMA in the assembly and per product and add in
// pwGroupGo; neither is bit-identical to the SGEMM's order. A fused
// Relu runs in the kernel; other activations over blocks of
// pwGroupChunk positions of each output row right after they are
// computed, while they are in cache.

// pwGroupMaxC, pwGroupMaxM and pwGroupMaxCM bound the channels a group
// that the path takes: inputs up to what the AVX-512 kernel holds in
// registers, outputs and products up to where the SGEMM, whose tiles
// then fill, caught up in measurements (8 inputs by 32 outputs, 16 by
// 32 run as fast either way; 4 by 32 and 16 by 16 faster here).
const (
	pwGroupMaxC  = 16
	pwGroupMaxM  = 32
	pwGroupMaxCM = 256
	pwGroupChunk = 512
	pwGroupMinN  = 16
)

// pwGroupTakes reports whether the grouped 1×1 path takes a float32
// Conv of geometry g with cg inputs and mg outputs a group: a 1×1
// window without padding, not depthwise, of at least a vector of
// output positions (fewer go to the short and SGEMM paths), where the
// assembly kernels run (pwGroupKernelC): the scalar twin is slower than
// the SGEMM.
func pwGroupTakes(g *geom, cg, mg int) bool {
	return cg >= 2 && cg <= min(pwGroupMaxC, pwGroupKernelC()) && mg >= 1 && mg <= pwGroupMaxM && cg*mg <= pwGroupMaxCM &&
		size3(g.out) >= pwGroupMinN && (g.pointwise() || g.subsampledPointwise())
}

// pwGroupPlan runs the grouped 1×1 path: the current call and the
// zeros that stand for a missing bias.
type pwGroupPlan struct {
	call  pwGroupCall
	zeros []float32
}

// pwGroupCall is one image of a grouped 1×1 Conv: x holds its groups·cg
// input planes of n positions (subsampled if strided), y its groups·mg
// output planes.
type pwGroupCall struct {
	x, w, bias, y     []float32
	groups, cg, mg, n int
	parts             int
	ep                *gemmEpilogue
}

// conv computes the batch images of a grouped 1×1 Conv of geometry g
// (x the input, w the [groups·mg][cg] filters, bias nil or groups·mg
// values, y the output), then ep's activation (nil: none), splitting
// each image's positions across pool's threads. sub is the subsampled
// image's scratch, grown only when too small, odd the deinterleave's.
func (p *pwGroupPlan) conv(pool *workerPool, g *geom, x, w, bias, y []float32, batch, groups, cg, mg int, sub, odd *[]float32, ep *gemmEpilogue) {
	inSz, outSz := size3(g.in), size3(g.out)
	inC, outC := groups*cg, groups*mg
	if batch == 0 || outSz == 0 {
		return
	}
	if len(x) < batch*inC*inSz || len(w) < outC*cg || len(y) < batch*outC*outSz || (bias != nil && len(bias) < outC) {
		panic(fmt.Sprintf("grouped 1×1 Conv: %d inputs, %d weights, %d outputs, %d biases for %d images of %d groups of %d×%d", len(x), len(w), len(y), len(bias), batch, groups, cg, mg))
	}
	if bias == nil {
		p.zeros = growF32(&p.zeros, outC)
		bias = p.zeros
	}
	strided := !g.pointwise()
	parts := 1
	if pool != nil {
		parts = min(pool.size(), max(1, outSz/64), max(1, outC*outSz*cg/(1<<16)))
	}
	for n := range batch {
		xn := x[n*inC*inSz : (n+1)*inC*inSz]
		if strided {
			*sub = growF32(sub, inC*outSz)
			subsample(g, xn, inC, *sub, odd)
			xn = *sub
		}
		p.call = pwGroupCall{x: xn, w: w, bias: bias, y: y[n*outC*outSz : (n+1)*outC*outSz],
			groups: groups, cg: cg, mg: mg, n: outSz, parts: parts, ep: ep}
		if parts == 1 {
			p.runPart(0)
		} else {
			pool.run(p, parts)
		}
	}
	p.call = pwGroupCall{}
}

// runPart computes positions [part*n/parts, (part+1)*n/parts) of every
// group of the current call, in blocks of pwGroupChunk positions when
// an activation follows.
func (p *pwGroupPlan) runPart(part int) {
	cl := &p.call
	n, cg, mg := cl.n, cl.cg, cl.mg
	p0, p1 := part*n/cl.parts, (part+1)*n/cl.parts
	chunk := p1 - p0
	// Relu runs in the kernel; other activations over chunks.
	relu := cl.ep != nil && cl.ep.act.act == actRelu
	act := cl.ep != nil && !relu && cl.ep.act.act != actNone
	if act {
		chunk = pwGroupChunk
	}
	for grp := range cl.groups {
		xg := cl.x[grp*cg*n : (grp+1)*cg*n]
		yg := cl.y[grp*mg*n : (grp+1)*mg*n]
		wg := cl.w[grp*mg*cg : (grp+1)*mg*cg]
		bg := cl.bias[grp*mg : (grp+1)*mg]
		for s := p0; s < p1; {
			e := min(s+chunk, p1)
			if p1-e < chunk/2 {
				// A short remainder joins this block rather than run
				// alone.
				e = p1
			}
			pwGroup(xg[s:], n, wg, bg, yg[s:], n, e-s, cg, mg, relu)
			if act {
				for o := range mg {
					cl.ep.act.apply(yg[o*n+s : o*n+e])
				}
			}
			s = e
		}
	}
}

// pwGroupGo sets y[o*ys+p] = b[o] + Σ_c w[o*cg+c]*x[c*xs+p] for o < mg
// and p < n, summed in increasing c, then actRelu32's value of it when
// relu is set.
func pwGroupGo(x []float32, xs int, w, b, y []float32, ys, n, cg, mg int, relu bool) {
	for o := range mg {
		row := y[o*ys : o*ys+n]
		wo := w[o*cg : (o+1)*cg]
		for p := range row {
			acc := b[o]
			for c, wc := range wo {
				acc += float32(wc * x[c*xs+p])
			}
			row[p] = acc
		}
		if relu {
			actReluGo(row)
		}
	}
}

// pwGroupCheck panics unless pwGroup's arguments address only their
// slices.
func pwGroupCheck(x []float32, xs int, w, b, y []float32, ys, n, cg, mg int) {
	if n <= 0 || cg <= 0 || mg <= 0 {
		return
	}
	if xs < n || ys < n || len(x) < (cg-1)*xs+n || len(y) < (mg-1)*ys+n || len(w) < mg*cg || len(b) < mg {
		panic(fmt.Sprintf("pwGroup: %d×%d over %d positions, %d inputs %d apart, %d outputs %d apart, %d weights, %d biases", cg, mg, n, len(x), xs, len(y), ys, len(w), len(b)))
	}
}
