package cpu

import "fmt"

// dwTilePlan runs float32 depthwise convolutions of one filter per
// channel over small 2-D planes eight or sixteen channels at a time, the
// channels in the vector lanes, splitting the blocks across the worker
// pool.
//
// dwPlan's flat runs vectorise along a plane's rows: on small planes
// (14×14, 28×28) each plane pays its copy into stride phases, the phase
// columns past the output's and the rounding of its run to whole blocks,
// so that a plane of 49 outputs costs several times its multiply-adds.
// Here L planes (L = 8, or 16 where 512-bit vectors run at full width)
// are transposed into one zero-padded tile of PH×PW pixels of L floats,
// and every output pixel is one vector: tap (kh, kw) of output (oh, ow)
// is the tile's pixel (oh*sh + kh*dh, ow*sw + kw*dw), any stride or
// dilation the same loads. dwTile sums eight output pixels of a row at a
// time (eight FMA chains, the weights of a tap one vector), from the
// bias in tap order as dwRow does, so that both widths give the same
// bits; the outputs are transposed back into the L output planes, and
// the activation runs on them while they are in cache. Padding is zeros
// in the tile: no branch on it. With sixteen lanes, the channels past
// the last whole sixteen go as blocks of eight (the last one partial),
// each width with its own tile.
type dwTilePlan struct {
	key geom
	// lanes is the full blocks' width (8 or 16) the plan is laid out
	// for; pw the padded width, owr the pixels a row computes (at least
	// a block); per width (index lanes/16), tileLen the tile's floats
	// (with the slack that rounded-up outputs read) and offs the taps'
	// offsets in the tile.
	lanes, pw, owr int
	tileLen        [2]int
	offs           [2][]int
	scratch        []dwTileScratch
	call           dwTileCall
}

// dwTileScratch is one part's buffers: the transposed input, the padded
// tiles (one per width), the transposed outputs and the block's weights
// (taps×L, then L biases).
type dwTileScratch struct {
	flat, out, w []float32
	tile         [2][]float32
	_            [cacheLine]byte
}

// dwTileCall is one call, read by every part.
type dwTileCall struct {
	x, w, bias, y []float32
	ep            *gemmEpilogue
	g             *geom
	// channels per image, blocks of sixteen (wide16 per image) then of
	// eight over the batch, parts.
	channels, wide16, blocks, parts int
}

// dwTileMaxFloats bounds an eight-lane tile (256 KiB, planes up to about
// 90×90; the sixteen-lane tile is twice as large): past it the tile
// leaves the level-two cache, where dwPlan's bands (which stay in the
// level-one cache) did as well on 160×160 planes.
const dwTileMaxFloats = 1 << 16

// dwTileFits reports whether dwTilePlan runs geometry g with mult
// filters per channel: one filter, two spatial dims, some outputs,
// strides up to 8 and a padded plane of at most dwTileMaxFloats/8
// pixels, so that hostile strides and pads cannot size its buffers.
func dwTileFits(g *geom, mult int) bool {
	if mult != 1 || g.k[0] != 1 || g.in[0] != 1 || g.out[0] != 1 || g.s[1] > 8 || g.s[2] > 8 || g.out[1] < 1 || g.out[2] < 1 {
		return false
	}
	ph, pw := g.in[1]+g.pb[1]+g.pe[1], g.in[2]+g.pb[2]+g.pe[2]
	return ph <= dwTileMaxFloats && pw <= dwTileMaxFloats && 8*ph*pw <= dwTileMaxFloats
}

// prepare lays the plan out for g and the current lane width, unless it
// is laid out for them already.
func (p *dwTilePlan) prepare(g *geom) {
	lanes := dwTileLanes()
	if p.offs[0] != nil && p.key == *g && p.lanes == lanes {
		return
	}
	ph := g.in[1] + g.pb[1] + g.pe[1]
	p.pw = g.in[2] + g.pb[2] + g.pe[2]
	p.owr = max(g.out[2], 8)
	p.lanes = lanes
	taps := g.k[1] * g.k[2]
	for li, L := range [2]int{8, 16} {
		p.offs[li] = grow(p.offs[li], taps)
		maxOff, t := 0, 0
		for kh := range g.k[1] {
			for kw := range g.k[2] {
				p.offs[li][t] = (kh*g.d[1]*p.pw + kw*g.d[2]) * L
				maxOff = max(maxOff, p.offs[li][t])
				t++
			}
		}
		reach := (g.out[1]-1)*g.s[1]*p.pw*L + maxOff + (p.owr-1)*g.s[2]*L + L
		p.tileLen[li] = max(L*ph*p.pw, reach)
	}
	p.key = *g
	// Tiles laid out for another geometry hold data in its padding.
	for i := range p.scratch {
		for li := range 2 {
			t := p.scratch[i].tile[li]
			clear(t[:min(len(t), p.tileLen[li])])
		}
	}
}

// conv convolves the batch×channels planes of x (geometry g) with the
// channels filters of w into the planes of y, each from its bias (nil:
// zero), then applies ep's activation (nil: none), splitting the blocks
// of channels across pool's threads.
func (p *dwTilePlan) conv(pool *workerPool, g *geom, x, w, bias, y []float32, batch, channels int, ep *gemmEpilogue) {
	taps := g.k[1] * g.k[2]
	inSz, outSz := g.in[1]*g.in[2], g.out[1]*g.out[2]
	if batch*channels == 0 || outSz == 0 {
		return
	}
	p.prepare(g)
	if len(x) < batch*channels*inSz || len(w) < channels*taps || len(y) < batch*channels*outSz || (bias != nil && len(bias) < channels) {
		panic(fmt.Sprintf("depthwise tiles: %d inputs, %d weights, %d outputs, %d biases for %d planes of %d taps", len(x), len(w), len(y), len(bias), batch*channels, taps))
	}
	L, wide16 := p.lanes, 0
	if L == 16 {
		wide16 = channels / 16
	}
	narrow := ceilDiv(channels-16*wide16, 8)
	blocks := batch * (wide16 + narrow)
	parts := 1
	if pool != nil {
		parts = min(pool.size(), blocks, max(1, batch*channels*outSz*taps/(1<<16)))
	}
	for len(p.scratch) < parts {
		p.scratch = append(p.scratch, dwTileScratch{})
	}
	for i := range parts {
		s := &p.scratch[i]
		for li, used := range [2]bool{narrow > 0, wide16 > 0} {
			if used && len(s.tile[li]) < p.tileLen[li] {
				s.tile[li] = make([]float32, p.tileLen[li])
			}
		}
		s.flat = growF32(&s.flat, L*inSz)
		s.out = growF32(&s.out, L*(g.out[1]-1)*g.out[2]+L*p.owr)
		s.w = growF32(&s.w, L*taps+L)
	}
	p.call = dwTileCall{x: x, w: w, bias: bias, y: y, ep: ep, g: g, channels: channels, wide16: wide16, blocks: blocks, parts: parts}
	if parts == 1 {
		p.runPart(0)
	} else {
		pool.run(p, parts)
	}
	p.call = dwTileCall{}
}

// runPart computes blocks [part*blocks/parts, (part+1)*blocks/parts) of
// the current call.
func (p *dwTilePlan) runPart(part int) {
	cl := &p.call
	g := cl.g
	s := &p.scratch[part]
	IH, IW := g.in[1], g.in[2]
	OH, OW := g.out[1], g.out[2]
	inSz, outSz := IH*IW, OH*OW
	pbh, pbw, pw, owr := g.pb[1], g.pb[2], p.pw, p.owr
	taps := len(p.offs[0])
	nb := cl.wide16 + ceilDiv(cl.channels-16*cl.wide16, 8)
	for b := part * cl.blocks / cl.parts; b < (part+1)*cl.blocks/cl.parts; b++ {
		i := b % nb
		c0, L := 16*i, 16
		if i >= cl.wide16 {
			c0, L = 16*cl.wide16+8*(i-cl.wide16), 8
		}
		k, li := min(L, cl.channels-c0), L/16
		tile, offs, out := s.tile[li][:p.tileLen[li]], p.offs[li], s.out
		plane := b/nb*cl.channels + c0
		src := cl.x[plane*inSz : (plane+k)*inSz]
		if IW < 8 || k < L {
			flat := s.flat[:L*inSz]
			transposeLanes(flat, src, L, inSz, inSz, k)
			copyStrided(tile[L*(pbh*pw+pbw):], L*pw, flat, L*IW, L*IW, IH)
		} else {
			for ih := range IH {
				transposeLanes(tile[L*((ih+pbh)*pw+pbw):], src[ih*IW:], L, inSz, IW, L)
			}
		}
		// The block's weights, tap-major like its pixels; missing
		// channels weigh zero.
		wv, bv := s.w[:L*taps], s.w[L*taps:L*taps+L]
		if k < L {
			clear(wv)
		}
		transposeLanes(wv, cl.w[c0*taps:(c0+k)*taps], L, taps, taps, k)
		clear(bv)
		if cl.bias != nil {
			copy(bv, cl.bias[c0:c0+k])
		}
		// Rows of fewer than eight outputs compute eight, into the next
		// row's (computed after) and the slack after the last.
		dwTile(out, L, owr, OH, L*OW, tile, L*g.s[1]*pw, L*g.s[2], offs, wv, bv)
		y := cl.y[plane*outSz : (plane+k)*outSz]
		untransposeLanes(y, outSz, out, L, outSz, k)
		if cl.ep != nil {
			cl.ep.act.apply(y)
		}
	}
}

// transposeGo sets dst[j*lanes+c] = src[c*stride+j] for j < n and
// c < k (k <= lanes): k planes into pixels of lanes floats, lanes k to
// lanes-1 left as they are.
func transposeGo(dst, src []float32, lanes, stride, n, k int) {
	for j := range n {
		d := dst[lanes*j : lanes*j+k]
		for c := range d {
			d[c] = src[c*stride+j]
		}
	}
}

// untransposeGo sets dst[c*stride+j] = src[j*lanes+c] for j < n and
// c < k: lanes 0 to k-1 of pixels of lanes floats into k planes.
func untransposeGo(dst []float32, stride int, src []float32, lanes, n, k int) {
	for c := range k {
		d := dst[c*stride : c*stride+n]
		for j := range d {
			d[j] = src[lanes*j+c]
		}
	}
}

// dwTileGo sets, for rows r < rows, pixels i < n and lanes c < lanes,
// dst[r*dstride+lanes*i+c] = bias[c] + Σ_t w[lanes*t+c]*src[r*sstride+offs[t]+i*step+c],
// summed in increasing t, rows in order. Products are rounded before the
// add (float32(x*y)), so the compiler never fuses them.
func dwTileGo(dst []float32, lanes, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	dwTileCheck(dst, lanes, n, rows, dstride, src, sstride, step, offs, w, bias)
	for r := range rows {
		for i := range n {
			for c := range lanes {
				acc := bias[c]
				for t, o := range offs {
					acc += float32(w[lanes*t+c] * src[r*sstride+o+i*step+c])
				}
				dst[r*dstride+lanes*i+c] = acc
			}
		}
	}
}

// dwTileCheck panics when dwTile would read or write outside its
// slices.
func dwTileCheck(dst []float32, lanes, n, rows, dstride int, src []float32, sstride, step int, offs []int, w, bias []float32) {
	if n <= 0 || rows <= 0 {
		return
	}
	if len(dst) < (rows-1)*dstride+lanes*n || len(w) < lanes*len(offs) || len(bias) < lanes || step < 0 || sstride < 0 || dstride < 0 {
		panic(fmt.Sprintf("dwTile: %d rows of %d pixels of %d lanes, %d apart, into %d floats, %d weights for %d taps, %d biases, steps %d, %d", rows, n, lanes, dstride, len(dst), len(w), len(offs), len(bias), step, sstride))
	}
	for _, o := range offs {
		if o < 0 || (rows-1)*sstride+o+(n-1)*step+lanes > len(src) {
			panic(fmt.Sprintf("dwTile: tap at %d, %d rows %d apart of %d pixels %d apart, outside %d", o, rows, sstride, n, step, len(src)))
		}
	}
}
